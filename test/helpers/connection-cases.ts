/** Connection settings to judge: `test/kinds/connection.test.ts` holds the rules to them, `test/connection-settings.test.ts` every frontend. */

/** Endpoints every frontend refuses: no http(s) scheme, or no host. */
export const badEndpoints = [
  "api.example.com",
  "ftp://api.example.com",
  "HTTPS://api.example.com",
  " https://api.example.com",
  "https://",
  "http://",
  "https:///v2",
  "https://?q=1",
  "https://#top",
  "http://:8080",
  "http://exa mple.com",
];
export const goodEndpoints = [
  "https://api.example.com/v2",
  "http://localhost:8080",
  "http://127.0.0.1:4010/",
  "https://[::1]:8443/api",
];
export const badTokens = ["two words", "line\nbreak", "tab\tted", "ünïcode", "nul\u0000"];
