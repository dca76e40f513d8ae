/**
 * What finding credentials from the traits costs (issue 16): every plan, state entry, export and provider
 * answer walks each object for its credentials (`credentialPointers`), and the client's debug log redacts
 * every body it prints (`redactBody`). No API calls: this is CPU time only.
 *
 *   npm run bench:credentials [-- --objects 20000 --runs 5]
 *
 * Prints the median over the runs of: the walk of N http monitors (a password and two header values each),
 * of N http contacts (two header values), and the redaction of N monitor bodies in bulk bodies of 500.
 */
import { parseArgs } from "node:util";
import { redactBody } from "../src/api/index.ts";
import { engineKind } from "../src/engine/index.ts";

const { values: args } = parseArgs({
  options: {
    objects: { type: "string", default: "20000" },
    runs: { type: "string", default: "5" },
  },
});
const count = Number(args.objects);
const runs = Number(args.runs);

const monitors = Array.from({ length: count }, (_, i) => ({
  type: "http",
  url: `https://shop-${i}.example.com/health`,
  name: `Shop ${i}`,
  interval: 60,
  tags: ["shop", "prod"],
  settings: {
    username: "probe",
    password: `pw-${i}`,
    timeout: 10000,
    headers: [
      { name: "Authorization", value: `Bearer ${i}` },
      { name: "X-Env", value: "prod" },
    ],
  },
}));
const contacts = Array.from({ length: count }, (_, i) => ({
  type: "http",
  address: `https://hooks-${i}.example.com/alert`,
  httpHeaders: [
    { header: "Authorization", value: `Bearer ${i}` },
    { header: "X-Source", value: "vigil" },
  ],
}));

function median(fn: () => number): { ms: number; found: number } {
  const times: number[] = [];
  let found = 0;
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    found = fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)]!, found };
}

const monitorKind = engineKind("monitor");
const contactKind = engineKind("contact");
const walkMonitors = median(() => monitors.reduce((n, m) => n + monitorKind.credentials(m).length, 0));
const walkContacts = median(() => contacts.reduce((n, c) => n + contactKind.credentials(c).length, 0));
const redaction = median(() => {
  let n = 0;
  for (let i = 0; i < monitors.length; i += 500)
    n += JSON.stringify(redactBody({ items: monitors.slice(i, i + 500) })).length;
  return n;
});

const line = (what: string, r: { ms: number }, unit: string) =>
  `${what.padEnd(44)} ${r.ms.toFixed(1).padStart(8)} ms  (${((r.ms * 1000) / count).toFixed(2)} µs per ${unit})`;
console.log(`${count} objects, median of ${runs} runs`);
console.log(
  `${line("credentialPointers, http monitors", walkMonitors, "monitor")}  ${walkMonitors.found} found`,
);
console.log(
  `${line("credentialPointers, http contacts", walkContacts, "contact")}  ${walkContacts.found} found`,
);
console.log(line("redactBody, bulk bodies of 500 monitors", redaction, "monitor"));
