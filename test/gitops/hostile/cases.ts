/**
 * The hostile-config corpus (issue 16, points 1 to 7, and issue 25's point 8,
 * "25.8"): configurations a
 * careless or hostile pull request could hold. Each case is a small repo (its
 * files, and the symbolic links among them) and what `vigil` must answer: the
 * exact problem lines (`…` stands for any text), in a bounded time, without a
 * single API call. `test/gitops/hostile.test.ts` runs them.
 *
 * Cases are built here rather than stored as files because most inputs are
 * what no one should commit: alias bombs, binaries, 9 MiB files, 100,000
 * levels of brackets, symbolic link loops.
 */

export interface HostileCase {
  name: string;
  /** The point of issue 16 (or of issue 25: "25.8") the case keeps closed. */
  point: string;
  /** Relative path → content. */
  files: Record<string, string | Buffer>;
  /** Relative path of a link → its target, as written into the link. */
  links?: Record<string, string>;
  /** The problem lines (without `Error: `), in order; the closing count line is checked as well. */
  expected: string[];
  /** The loader's own time for this input, in milliseconds, at most. */
  withinMs: number;
  /** Resources the loader still declares (symbolic links followed), checked in-process. */
  declares?: string[];
}

/** `${env:NAME}`, written so that no string literal looks like a mistaken template. */
const env = (name: string) => `\${env:${name}}`;

const monitor = (name: string, extra = "") =>
  `  ${name}:\n    type: http\n    url: https://${name}.example.com/health\n    locations: { pools: [westeurope] }\n${extra}`;

/** The classic "billion laughs": each level holds its anchor nine times; nine levels are 9^9 strings. */
function laughs(indent: string): string {
  const names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
  return names
    .map((name, level) => {
      const items = level === 0 ? Array(9).fill('"lol"') : Array(9).fill(`*${names[level - 1]}`);
      return `${indent}- &${name} [${items.join(",")}]\n`;
    })
    .join("");
}

/** An ELF header and then some: what a compiled binary named `*.yaml` begins with. */
const elf = Buffer.concat([
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]),
  Buffer.alloc(56, 0),
  Buffer.from("monitors: {}\n".repeat(200)),
]);

/** A comment line repeated to `bytes`: a file that is valid YAML, only too large. */
const padding = (bytes: number) =>
  `${"# padding padding padding padding padding padding padding pad\n".repeat(Math.ceil(bytes / 64))}`;

export const hostileCases: HostileCase[] = [
  {
    name: "alias-bomb-top-level",
    point: "1",
    files: { "bomb.yaml": `monitors:\n${monitor("web")}laughs:\n${laughs("  ")}` },
    expected: [
      "bomb.yaml:13:24: the alias *f expands to 597,871 values: the configuration holds more than 4,000,000 values (maps, lists and scalars, counting each use of an alias in full), the most vigil reads",
    ],
    // About 0.45 s on a loaded machine; the bound keeps a tenfold margin.
    withinMs: 5000,
  },
  {
    name: "alias-bomb-in-tags",
    point: "1",
    files: { "bomb.yaml": `monitors:\n${monitor("web", `    tags:\n${laughs("      ")}`)}` },
    expected: ["bomb.yaml:13:28: monitors.web tags[6][5]: the alias *f expands to 597,871 values: …"],
    withinMs: 2000,
  },
  {
    name: "alias-nesting-and-cycle",
    point: "1",
    files: {
      "deep.yaml": `monitors:\n${monitor("web", `    tags: &deep ${"[".repeat(40)}${"]".repeat(40)}\n    settings: { headers: ${"[".repeat(30)}*deep${"]".repeat(30)} }\n`)}`,
      "cycle.yaml": "monitors:\n  loop: &loop { type: http, tags: [*loop] }\n",
    },
    expected: [
      "cycle.yaml:2:36: monitors.loop tags[0]: the alias *loop refers to itself",
      "deep.yaml:7:56: monitors.web settings.headers…: the alias *deep nests values deeper than 64 levels, the most vigil reads",
    ],
    withinMs: 2000,
  },
  {
    name: "file-too-large",
    point: "2",
    files: { "monitors.yaml": `monitors:\n${monitor("web")}${padding(9 * 2 ** 20)}` },
    expected: [
      "monitors.yaml:1:1: the file holds 8.7 MiB; a vigil file holds at most 8 MiB (split the configuration into several files)",
    ],
    withinMs: 2000,
  },
  {
    name: "configuration-too-large",
    point: "2",
    files: Object.fromEntries(
      [1, 2, 3, 4, 5].map((n) => [
        `part-${n}.yaml`,
        `monitors:\n${monitor(`web-${n}`)}${padding(7 * 2 ** 20)}`,
      ]),
    ),
    expected: ["the configuration's 5 files hold 33.9 MiB; vigil reads at most 32 MiB in all"],
    withinMs: 2000,
  },
  {
    name: "too-many-files",
    point: "2",
    files: Object.fromEntries(
      Array.from({ length: 10_001 }, (_, i) => [`many/file-${String(i).padStart(5, "0")}.yaml`, ""]),
    ),
    expected: ["many/file-10000.yaml: the configuration has more than 10,000 files, the most vigil reads"],
    // About 4.6 s on a loaded machine (10,000 files opened); the bound keeps a tenfold margin.
    withinMs: 50_000,
  },
  {
    name: "too-many-directories",
    point: "5",
    // What a link to a large tree (`/`, a home directory) would make the walk go through.
    files: Object.fromEntries(
      Array.from({ length: 10_001 }, (_, i) => [`tree/d-${String(i).padStart(5, "0")}/notes.txt`, ""]),
    ),
    expected: ["tree/d-09998: the configuration spans more than 10,000 directories, the most vigil walks"],
    // About 2.9 s on a loaded machine; the bound keeps a tenfold margin.
    withinMs: 30_000,
  },
  {
    name: "top-level-proto",
    point: "3",
    files: {
      "monitors.yaml": `__proto__:\n  web: { type: http }\nconstructor: {}\nmonitors:\n${monitor("web")}`,
    },
    expected: [
      'monitors.yaml:1:1: unknown top-level key "__proto__"; allowed: …',
      'monitors.yaml:3:1: unknown top-level key "constructor"; allowed: …',
    ],
    withinMs: 5000,
  },
  {
    name: "proto-under-monitors",
    point: "3",
    files: { "monitors.yaml": `monitors:\n  __proto__:\n${monitor("web").replace(/^/gm, "  ")}` },
    expected: [
      'monitors.yaml:2:3: monitors: "__proto__" is not a valid name: lower-case letters, digits, _ and -, starting with a letter or digit; did you mean "proto__"?',
    ],
    withinMs: 5000,
  },
  {
    name: "proto-members-and-settings",
    point: "3",
    files: {
      "config.yaml": `contacts:
  constructor: { type: email, address: ops@example.com }
contactGroups:
  ops:
    name: Ops
    members: [{ contact: constructor, events: [down], __proto__: { events: [up] } }]
monitors:
${monitor("web", "    __proto__: { interval: 60 }\n    settings: { __proto__: { timeout: 1 }, timeout: 1000 }\n    alerts: [{ contact: constructor, alertTypes: [down] }]\n")}`,
    },
    expected: [
      'config.yaml:6:55: contactGroups.ops members[0].__proto__: unknown member "__proto__"; allowed members: contact, events',
      'config.yaml:12:5: monitors.web __proto__: unknown member "__proto__"; allowed members: …',
      'config.yaml:13:17: monitors.web settings.__proto__: unknown member "__proto__"; allowed members: …',
    ],
    withinMs: 5000,
  },
  {
    name: "env-proto-and-constructor",
    point: "3",
    files: {
      "monitors.yaml": `monitors:\n${monitor("web", `    name: "${env("constructor")}"\n    tags: ["${env("__proto__:-fallback")}", "${env("hasOwnProperty")}"]\n`)}`,
    },
    expected: [
      `monitors.yaml:6:11: monitors.web name: the environment variable constructor is not set (${env("constructor")})`,
      `monitors.yaml:7:42: monitors.web tags[1]: the environment variable hasOwnProperty is not set (${env("hasOwnProperty")})`,
      "monitors.yaml:7:42: monitors.web tags[1]: must not be blank",
    ],
    withinMs: 5000,
  },
  {
    name: "deep-flow-nesting",
    point: "4",
    files: {
      "deep.yaml": `monitors:\n${monitor("web", `    tags: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`)}`,
    },
    expected: ["deep.yaml:6:73: values nest deeper than 64 levels here, the most vigil reads"],
    withinMs: 5000,
  },
  {
    name: "deep-map-nesting",
    point: "4",
    files: {
      "deep.yaml": `monitors:\n${monitor("web", `    settings: ${"{ a: ".repeat(10_000)}1${" }".repeat(10_000)}\n`)}`,
    },
    expected: ["deep.yaml:6:321: values nest deeper than 64 levels here, the most vigil reads"],
    withinMs: 5000,
  },
  {
    name: "symbolic-links",
    point: "5",
    files: {
      "repo/monitors.yaml": `monitors:\n${monitor("web", "    alerts: [{ contact: oncall, alertTypes: [down] }]\n")}`,
      "repo/common/contacts.yaml": "contacts:\n  oncall: { type: email, address: oncall@example.com }\n",
    },
    links: {
      // A linked directory inside the repo is followed, and its files are read once.
      "repo/team/shared": "../common",
      // A second link to a file already read is not read twice.
      "repo/again.yaml": "monitors.yaml",
      // A link back to the repo itself does not make the walk endless.
      "repo/loop": ".",
      "repo/nested/up": "..",
      "repo/dangling.yaml": "no-such-file.yaml",
    },
    expected: ["dangling.yaml: a symbolic link to nothing"],
    withinMs: 5000,
    declares: ["contacts.oncall", "monitors.web", "monitors.web.alerts.oncall"],
  },
  {
    name: "symbolic-links-out-of-the-repo",
    point: "25.8",
    files: {
      "repo/monitors.yaml": `monitors:\n${monitor("web")}`,
      // What a runner keeps beside the checkout: it must never be read, let alone quoted.
      "runner/token.yaml": "token: RUNNER-SECRET-0123456789\n",
      "runner/config/settings.yaml": "password: RUNNER-PASSWORD-9876\n",
    },
    links: {
      "repo/passwd.yaml": "/etc/passwd",
      "repo/etc": "/etc",
      "repo/token.yaml": "../runner/token.yaml",
      "repo/runner": "../runner",
      // Out through a link that itself stays inside, and in through a directory that stays inside.
      "repo/inside.yaml": "token.yaml",
      "repo/deep/out.yaml": "../../runner/config/settings.yaml",
      // Loops: each other, and itself.
      "repo/ping.yaml": "pong.yaml",
      "repo/pong.yaml": "ping.yaml",
      "repo/self.yaml": "self.yaml",
      "repo/spin": "spin",
    },
    expected: [
      'deep/out.yaml: a symbolic link out of the paths given (.), to "../../runner/config/settings.yaml"; vigil does not follow links that leave them',
      'etc: a symbolic link out of the paths given (.), to "/etc"; vigil does not follow links that leave them',
      'inside.yaml: a symbolic link out of the paths given (.), to "token.yaml"; vigil does not follow links that leave them',
      'passwd.yaml: a symbolic link out of the paths given (.), to "/etc/passwd"; vigil does not follow links that leave them',
      "ping.yaml: a symbolic link loop",
      "pong.yaml: a symbolic link loop",
      'runner: a symbolic link out of the paths given (.), to "../runner"; vigil does not follow links that leave them',
      "self.yaml: a symbolic link loop",
      'token.yaml: a symbolic link out of the paths given (.), to "../runner/token.yaml"; vigil does not follow links that leave them',
    ],
    withinMs: 5000,
    declares: ["monitors.web"],
  },
  {
    name: "binary-file",
    point: "6",
    files: { "monitors.yaml": elf },
    expected: [
      'monitors.yaml:1:1: not a YAML text file: the control character 0x7f (at "\\x7fELF\\x02\\x01\\x01\\x00"…); vigil reads UTF-8 text',
    ],
    withinMs: 2000,
  },
  {
    name: "not-utf-8",
    point: "6",
    files: {
      "contacts.yaml": Buffer.concat([
        Buffer.from("contacts:\n  oncall: { type: email, address: caf"),
        Buffer.from([0xe9, 0x40]),
        Buffer.from("example.com }\n"),
      ]),
    },
    expected: [
      'contacts.yaml:2:38: not a YAML text file: the byte 0xe9, which is not UTF-8 (at …"ess: caf\\xe9@exampl"…); vigil reads UTF-8 text',
    ],
    withinMs: 2000,
  },
  {
    name: "terminal-escapes-in-keys",
    point: "6",
    // YAML's own escapes put an ANSI "clear screen" and a right-to-left override into a key.
    files: {
      "monitors.yaml": `"\\e[2J\\u202Eevil": 1\nmonitors:\n  web: { type: http, url: "https://web.example.com/\\e[31m", locations: { pools: [westeurope] }, "\\e]0;title\\a": 1 }\n`,
    },
    expected: [
      'monitors.yaml:1:1: unknown top-level key "\\x1b[2J\\u{202e}evil"; allowed: …',
      'monitors.yaml:3:97: monitors.web "\\x1b]0;title\\x07": unknown member "\\x1b]0;title\\x07"; allowed members: …',
    ],
    withinMs: 5000,
  },
  {
    name: "tab-does-not-cascade",
    point: "7",
    files: {
      "monitors.yaml": `monitors:\n${monitor("homepage", "    tags: [shop]\n\tinterval: 60\n")}${monitor("checkout")}`,
      "status-pages.yaml":
        "statusPages:\n  public:\n    slug: shop-status\n    title: Shop\n    components:\n      - { name: Home, monitor: homepage }\n      - { name: Checkout, monitor: checkout }\n",
      "maintenance.yaml":
        "maintenance:\n  deploy: { name: Deploy, from: 1796090400, to: 1796094000, monitors: [homepage, checkout] }\n",
    },
    expected: [
      "monitors.yaml:7:1: Tabs are not allowed as indentation (… more syntax error… after this one, which may follow from it)",
    ],
    withinMs: 5000,
  },
  {
    name: "misindented-line-19",
    point: "7",
    files: {
      "monitors.yaml": `monitors:\n${monitor("one", "    interval: 60\n")}${monitor("two", "    tags: [b]\n    interval: 60\n")}${monitor("three", "    tags: [c]\n    # the next line is indented one space too far\n     interval: 60\n")}`,
    },
    expected: ["monitors.yaml:19:6: All mapping items must start at the same column"],
    withinMs: 5000,
  },
];
