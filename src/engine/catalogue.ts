/**
 * What the data sources read: the monitor type catalogue, the location pools and the account, each as plain
 * members in one result object. Terraform's data sources and the Pulumi provider's functions both shape
 * these (src/kinds/data-sources.ts), so the reading is written once.
 */
import type { Operations } from "../api/index.ts";
import type { Members, Row } from "./kinds/index.ts";

export type CatalogueName = "monitorTypes" | "agentPools" | "account";

export async function readCatalogue(ops: Operations, name: CatalogueName): Promise<Members> {
  switch (name) {
    case "monitorTypes": {
      const { data } = (await ops.catalogue.monitorTypes()) as { data: Row[] };
      return { types: data };
    }
    case "agentPools": {
      const { data, summary } = (await ops.catalogue.agentPools()) as { data: Row[]; summary: Row };
      return { pools: data, ...summary };
    }
    case "account": {
      const account = (await ops.account.get()) as Row & { package: { name: string; features: Row } };
      // Features are of every JSON type (true, 50, ["daily"]): one map of JSON texts is what typed
      // frontends can declare.
      const features = Object.fromEntries(
        Object.entries(account.package.features).map(([feature, value]) => [feature, JSON.stringify(value)]),
      );
      return { ...account, plan: account.package.name, features };
    }
  }
}
