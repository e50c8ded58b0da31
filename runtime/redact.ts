/**
 * Keeping credentials out of messages: endpoint URLs often carry an API key in the query
 * string (`?api-key=…`) or userinfo, and headers carry `authorization` tokens. Errors name
 * their target with `redactUrl`, and any text that may echo a request (server error bodies,
 * underlying error messages) goes through a `Redactor` built from `secretsOf`.
 */

const MASK = "***";
/** Secrets shorter than this are not masked in free text ("1", "true" would mangle it). */
const MIN_SECRET_LENGTH = 4;

const SENSITIVE_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key"]);
const SENSITIVE_PARTS = /token|secret|key|auth|password/;

/**
 * The URL with every query value replaced by `***` (names kept), userinfo replaced by
 * `***@` and any fragment dropped. Text that does not parse as a URL gives `<invalid url>`.
 */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "<invalid url>";
  }
  const userinfo = u.username !== "" || u.password !== "" ? `${MASK}@` : "";
  let search = "";
  if (u.search.length > 1) {
    const parts = u.search.slice(1).split("&");
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const eq = part.indexOf("=");
      parts[i] = eq === -1 ? part : `${part.slice(0, eq)}=${MASK}`;
    }
    search = `?${parts.join("&")}`;
  }
  const base = u.host !== "" ? `${u.protocol}//${userinfo}${u.host}` : u.protocol;
  return `${base}${u.pathname}${search}`;
}

/** Whether a header's value is a credential (by name, case-insensitive). */
export function isSensitiveHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return SENSITIVE_HEADERS.has(lower) || SENSITIVE_PARTS.test(lower);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

function addSecret(out: Set<string>, value: string): void {
  if (value.length < MIN_SECRET_LENGTH) return;
  out.add(value);
  // The forms the value takes once URL-encoded (path/query style and form style).
  const encoded = encodeURIComponent(value);
  if (encoded !== value) {
    out.add(encoded);
    const form = encoded.replace(/%20/g, "+");
    if (form !== encoded) out.add(form);
  }
}

function addQueryValue(out: Set<string>, raw: string): void {
  // Both the value as written in the URL and its decoded form.
  addSecret(out, raw);
  const decoded = safeDecode(raw);
  if (decoded !== raw) addSecret(out, decoded);
}

function addHeaderValue(out: Set<string>, name: string, value: string): void {
  const trimmed = value.trim();
  addSecret(out, trimmed);
  // `Bearer xyz`, `Basic dXNlcjpwYXNz`, `Token xyz`: the credential alone as well.
  const scheme = /^([A-Za-z][\w-]*)\s+(\S.*)$/.exec(trimmed);
  if (scheme) {
    const credential = scheme[2]!.trim();
    addSecret(out, credential);
    if (scheme[1]!.toLowerCase() === "basic") {
      const decoded = Buffer.from(credential, "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      if (colon > 0 && /^[\x20-\x7e]*$/.test(decoded)) {
        addSecret(out, decoded);
        addSecret(out, decoded.slice(0, colon));
        addSecret(out, decoded.slice(colon + 1));
      }
    }
  }
  const lower = name.toLowerCase();
  if (lower === "cookie" || lower === "set-cookie") {
    for (const pair of trimmed.split(/;\s*/)) {
      const eq = pair.indexOf("=");
      if (eq !== -1) addSecret(out, pair.slice(eq + 1).trim());
    }
  }
}

/**
 * Every credential-like string of an endpoint and its headers: each query value, the userinfo
 * user and password, and the value of each sensitive header (for `Bearer xyz` also `xyz`),
 * with their URL-encoded forms. Values shorter than 4 characters are left out.
 */
export function secretsOf(url: string | undefined, headers?: Record<string, string>): string[] {
  const out = new Set<string>();
  if (url !== undefined && url !== "") {
    let u: URL | undefined;
    try {
      u = new URL(url);
    } catch {
      u = undefined;
    }
    if (u) {
      if (u.username !== "") addQueryValue(out, u.username);
      if (u.password !== "") addQueryValue(out, u.password);
      if (u.search.length > 1) {
        for (const part of u.search.slice(1).split("&")) {
          const eq = part.indexOf("=");
          if (eq !== -1) addQueryValue(out, part.slice(eq + 1));
        }
      }
    } else {
      // Not a URL we can parse: still take anything that looks like `?name=value` or `user:pass@`.
      for (const m of url.matchAll(/[?&][^=&#\s]*=([^&#\s]*)/g)) addQueryValue(out, m[1]!);
      const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^@/?#\s]*)@/i.exec(url);
      if (userinfo) for (const piece of userinfo[1]!.split(":")) addQueryValue(out, piece);
    }
  }
  if (headers) {
    for (const name of Object.keys(headers)) {
      const value = headers[name];
      if (typeof value === "string" && isSensitiveHeader(name)) addHeaderValue(out, name, value);
    }
  }
  return [...out];
}

/** Replaces every secret occurrence in a text with `***`. */
export type Redactor = (text: string) => string;

const identity: Redactor = (text) => text;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A function that masks each secret in a text (longest first, so a secret that contains
 * another is masked whole). With no secrets it returns its input unchanged.
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  const list = [...new Set(secrets.filter((s) => typeof s === "string" && s.length > 0))].sort((a, b) => b.length - a.length);
  if (list.length === 0) return identity;
  // One alternation: at each position the regex engine tries the longest secret first.
  const pattern = new RegExp(list.map(escapeRegExp).join("|"), "g");
  return (text) => (typeof text === "string" && text.length > 0 ? text.replace(pattern, MASK) : text);
}
