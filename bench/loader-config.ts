/**
 * The configuration bench/loader.ts loads: `monitorCount` monitors (each with
 * tags, settings, an alert subscription and the contact's `${env:...}`
 * header) split over `fileCount` files, plus the contacts they name. A
 * module of its own so that test/gitops/read-paths.test.ts can check that
 * the plain reader takes every file of it.
 */
export const contactCount = 50;

/** File name → text. */
export function loaderConfig(monitorCount: number, fileCount: number): Map<string, string> {
  const files = new Map<string, string>();
  const contacts = ["contacts:"];
  for (let c = 0; c < contactCount; c++)
    contacts.push(
      `  oncall-${c}:`,
      "    type: http",
      `    address: https://hooks.example.com/pager/${c}`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a vigil placeholder, filled in by the loader
      '    httpHeaders: [{ header: Authorization, value: "Bearer ${env:PAGER_TOKEN}" }]',
    );
  files.set("contacts.yaml", `${contacts.join("\n")}\n`);
  const perFile = Math.ceil(monitorCount / fileCount);
  for (let f = 0; f < fileCount; f++) {
    const lines = ["monitors:"];
    for (let m = f * perFile; m < Math.min(monitorCount, (f + 1) * perFile); m++)
      lines.push(
        `  shop-${m}:`,
        "    type: http",
        `    url: https://shop-${m}.example.com/health`,
        `    tags: [shop, team-${m % 7}]`,
        "    locations: { pools: [westeurope, northamerica] }",
        "    alerts:",
        `      - { contact: oncall-${m % contactCount}, alertTypes: [down, up] }`,
      );
    files.set(`monitors-${String(f).padStart(3, "0")}.yaml`, `${lines.join("\n")}\n`);
  }
  return files;
}
