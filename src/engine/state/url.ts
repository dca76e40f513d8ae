/** Telling a PostgreSQL state URL from a file path, and showing it without its password. */

export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** The URL with its password replaced by `***`, for messages. */
export function redactUrl(url: string): string {
  return url
    .replace(/^(postgres(?:ql)?:\/\/[^:/@?#]*:)[^@/?#]*@/i, "$1***@")
    .replace(/([?&]password=)[^&#]*/gi, "$1***");
}
