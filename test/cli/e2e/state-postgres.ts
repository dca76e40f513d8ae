/**
 * What the tests of the CLI with its state in PostgreSQL share (state-postgres.test.ts,
 * state-postgres-lost.test.ts): the account's monitors as the service lists them, and an apply started in
 * the background, to be cut off (a kill, the database's sessions ended) once it has writes in flight.
 */
import type { State } from "../../../src/engine/index.ts";
import { type StartedVigil, startVigil } from "../vigil.ts";
import type { Project } from "./helpers.ts";

/** Every monitor of the project's account, page by page. */
export async function liveMonitors(p: Project): Promise<{ id: string; name: string; url: string }[]> {
  const out: { id: string; name: string; url: string }[] = [];
  let cursor: string | null = null;
  do {
    const page: { body: any } = await p.account.get(`/monitor?limit=500${cursor ? `&cursor=${cursor}` : ""}`);
    out.push(...page.body.data);
    cursor = page.body.hasMore ? page.body.nextCursor : null;
  } while (cursor);
  return out;
}

/** `vigil apply --auto-approve` in the project, running on while the test acts. */
export function startApply(p: Project, env: Record<string, string>): StartedVigil {
  return startVigil(["apply", "--auto-approve"], { cwd: p.dir, env, timeoutMs: 240_000 });
}

/** Resolves once the saved state's journal holds writes in flight, or the apply has `ended` first. */
export async function untilWritesInFlight(
  store: { read(): Promise<State | undefined> },
  ended: Promise<unknown>,
): Promise<void> {
  let done = false;
  void ended.then(() => {
    done = true;
  });
  while (!done) {
    const saved = await store.read();
    if (saved && Object.values(saved.resources).some((r) => r.pending)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}
