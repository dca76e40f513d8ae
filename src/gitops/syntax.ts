/**
 * The syntax of the special strings a vigil file may hold, as regular
 * expression sources without flags, so the same text serves JavaScript and
 * JSON Schema's `pattern` (ECMA-262 syntax, no flags).
 */

/**
 * An ISO 8601 time with a zone (`2026-12-01T02:00:00Z`, `2026-12-01 02:00+01:00`):
 * what `parseIsoTime` in format.ts accepts, its `i` flag spelt out as `[Tt ]` and `[Zz]`.
 */
export const isoTimeSource =
  "^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?([Zz]|[+-]\\d{2}:?\\d{2})$";

/** A `${env:NAME}` or `${env:NAME:-default}` placeholder anywhere in a string; NAME as the shell spells one. */
export const envPlaceholderSource = "\\$\\{env:[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\\}";
