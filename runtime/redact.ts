/**
 * Keeping credentials out of what leaves the process, at the output edge only (consoles, reports, files, errors).
 * `secretsOf` collects a run's secrets; a `Redactor` masks each as written, URL-encoded, JSON/HTML-escaped, in base64
 * at any alignment, and cut short (`abcd…`); a secret under 4 characters only where it stands as a whole token.
 */

const MASK = "***";
/** Secrets shorter than this are masked only as whole tokens ("1" inside "10" stays). */
const MIN_SECRET_LENGTH = 4;
/** A piece of a secret this long or longer before an excerpt's `…` is masked. */
const MIN_PIECE = 3;
/** Forms longer than this are masked by plain search rather than in the one regex (V8 caps a pattern's size). */
const REGEX_FORM = 1024;
/** Prefixes up to this long are looked up in a set; longer ones compared directly. */
const SET_PIECE = 256;
/** The longest excerpt any output cuts (the runner keeps 4096 characters of a body): no cut piece is longer. */
const MAX_PIECE = 4096;
/** The mark excerpts end with when they cut text short. */
const CUT = "…";

/** Query keys whose values are credentials (case-insensitive, by part of the name). */
const CREDENTIAL_QUERY_KEY = /key|token|secret|auth|pass|pwd|credential|session|jwt|signature|sig$/i;

const SENSITIVE_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key"]);
const SENSITIVE_PARTS = /token|secret|key|auth|password/;

/**
 * The URL for display: every query value replaced by `***` (names kept; a display loses
 * nothing by masking more than the secrets), userinfo replaced by `***@`, the fragment
 * dropped. Text that does not parse as a URL gives `<invalid url>`.
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

/** Whether a header's name marks a credential (case-insensitive). Every header given for a target is a secret anyway. */
export function isSensitiveHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return SENSITIVE_HEADERS.has(lower) || SENSITIVE_PARTS.test(lower);
}

/** Whether a query key names a credential (`api-key`, `apikey`, `api_key`, `key`, `token`, `access_token`, `auth`, `secret`, `password`, …). */
export function isCredentialQueryKey(name: string): boolean {
  return CREDENTIAL_QUERY_KEY.test(safeDecode(name));
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

function addSecret(out: Set<string>, value: string): void {
  if (value.length === 0) return;
  out.add(value);
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

/** The query values of credential-like keys in a URL (or, for text that is not a URL, in anything shaped `?name=value`). */
function addUrl(out: Set<string>, url: string): void {
  let u: URL | undefined;
  try {
    u = new URL(url);
  } catch {
    u = undefined;
  }
  const pairs: [string, string][] = [];
  if (u) {
    if (u.username !== "") addQueryValue(out, u.username);
    if (u.password !== "") addQueryValue(out, u.password);
    if (u.search.length > 1) {
      for (const part of u.search.slice(1).split("&")) {
        const eq = part.indexOf("=");
        if (eq !== -1) pairs.push([part.slice(0, eq), part.slice(eq + 1)]);
      }
    }
  } else {
    for (const m of url.matchAll(/[?&]([^=&#\s]*)=([^&#\s]*)/g)) pairs.push([m[1]!, m[2]!]);
    const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^@/?#\s]*)@/i.exec(url);
    if (userinfo) for (const piece of userinfo[1]!.split(":")) addQueryValue(out, piece);
  }
  for (const [name, value] of pairs) if (isCredentialQueryKey(name)) addQueryValue(out, value);
}

/**
 * The secrets of a target, with their URL-encoded forms: credential-like query values and userinfo,
 * every header value (and a Bearer token, Basic auth's user and password), and each `extra` (`--secret`).
 */
export function secretsOf(url: string | undefined, headers?: Readonly<Record<string, string>>, extra: readonly string[] = []): string[] {
  const out = new Set<string>();
  if (url !== undefined && url !== "") addUrl(out, url);
  if (headers) {
    for (const name of Object.keys(headers)) {
      const value = headers[name];
      if (typeof value === "string") addHeaderValue(out, name, value);
    }
  }
  for (const value of extra) if (typeof value === "string") addSecret(out, value.trim());
  out.delete("");
  return [...out];
}

/**
 * Secrets named in the environment: `PHOTON_SECRETS`, one value per line (so a value may
 * hold commas and spaces). Blank lines are ignored.
 */
export function secretsFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  const raw = env.PHOTON_SECRETS;
  if (!raw) return [];
  return raw
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Replaces every secret occurrence in a text with `***`. */
export type Redactor = (text: string) => string;

const identity: Redactor = (text) => text;

/**
 * `text` as a regular expression matching exactly itself, in any position (a character class
 * included) and with or without the `u` flag: syntax characters escaped, `-` as `\x2d` (`\-`
 * is an error under `u` outside a class).
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/-/g, "\\x2d");
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * The base64 text that `value` leaves inside any longer base64 string, at each of the three
 * byte alignments: the characters that depend on the value's bytes alone.
 */
function base64Cores(value: string): string[] {
  const bytes = Buffer.from(value, "utf8");
  const out: string[] = [];
  for (let lead = 0; lead < 3; lead++) {
    const padded = Buffer.concat([Buffer.alloc(lead), bytes]);
    const full = padded.toString("base64").replace(/=+$/, "");
    // The first group mixes the leading bytes in; the last mixes in whatever follows, unless it ends on a group boundary.
    const start = lead === 0 ? 0 : 4;
    const end = padded.length % 3 === 0 ? full.length : Math.floor(padded.length / 3) * 4;
    const core = full.slice(start, end);
    if (core.length >= 8) {
      out.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"));
    }
  }
  return out;
}

/** Every form a secret may take in output: as written, JSON- and HTML-escaped, base64 (whole and inside longer base64). */
function formsOf(secret: string): string[] {
  const forms = new Set([secret]);
  const json = JSON.stringify(secret).slice(1, -1);
  forms.add(json);
  forms.add(secret.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!));
  if (secret.length >= MIN_SECRET_LENGTH) {
    const b64 = Buffer.from(secret, "utf8").toString("base64");
    forms.add(b64);
    forms.add(b64.replace(/=+$/, ""));
    forms.add(b64.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"));
    for (const core of base64Cores(secret)) forms.add(core);
  }
  return [...forms];
}

/**
 * Masks each secret in a text in every form `formsOf` lists, longest first. Secrets under 4 characters
 * are masked only as whole tokens; a 3+ character piece of a secret just before `…` is masked too.
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  const unique = [...new Set(secrets.filter((s) => typeof s === "string" && s.length > 0))];
  if (unique.length === 0) return identity;
  const long = new Set<string>();
  const short = new Set<string>();
  for (const secret of unique) {
    for (const form of formsOf(secret)) (form.length >= MIN_SECRET_LENGTH ? long : short).add(form);
  }
  const byLength = (a: string, b: string) => b.length - a.length;
  // The regex engine refuses very large patterns: forms longer than REGEX_FORM are masked by
  // plain search instead, longest first, before the regex runs.
  const huge = [...long].filter((f) => f.length > REGEX_FORM).sort(byLength);
  const inRegex = [...long].filter((f) => f.length <= REGEX_FORM);
  const alternatives: string[] = [];
  if (inRegex.length > 0) alternatives.push(inRegex.sort(byLength).map(escapeRegExp).join("|"));
  if (short.size > 0) alternatives.push(`(?<![\\p{L}\\p{N}_])(?:${[...short].sort(byLength).map(escapeRegExp).join("|")})(?![\\p{L}\\p{N}_])`);
  const pattern = alternatives.length > 0 ? new RegExp(alternatives.join("|"), "gu") : null;
  const maskWhole = (text: string): string => {
    let out = text;
    for (const form of huge) if (out.includes(form)) out = out.split(form).join(MASK);
    return pattern === null ? out : out.replace(pattern, MASK);
  };
  // Pieces a cut may leave: every prefix of 3+ characters of each long form, up to SET_PIECE
  // characters in a set (a long secret would otherwise cost its length squared); longer pieces,
  // up to the longest excerpt any output cuts (MAX_PIECE), are compared with the forms that long.
  const pieces = new Set<string>();
  const longForms: string[] = [];
  let longest = 0;
  for (const form of long) {
    longest = Math.max(longest, form.length);
    for (let n = MIN_PIECE; n < Math.min(form.length, SET_PIECE + 1); n++) pieces.add(form.slice(0, n));
    if (form.length > SET_PIECE + 1) longForms.push(form);
  }
  const isPiece = (piece: string): boolean =>
    piece.length <= SET_PIECE ? pieces.has(piece) : longForms.some((f) => f.length > piece.length && f.startsWith(piece));
  const maskCutPieces = (text: string): string => {
    if (!text.includes(CUT)) return text;
    let out = "";
    let from = 0;
    for (let at = text.indexOf(CUT); at !== -1; at = text.indexOf(CUT, at + 1)) {
      let cut = 0;
      for (let n = Math.min(longest - 1, at - from, MAX_PIECE); n >= MIN_PIECE; n--) {
        if (isPiece(text.slice(at - n, at))) {
          cut = n;
          break;
        }
      }
      if (cut > 0) {
        out += `${text.slice(from, at - cut)}${MASK}`;
        from = at;
      }
    }
    return out + text.slice(from);
  };
  return (text) => (typeof text === "string" && text.length > 0 ? maskCutPieces(maskWhole(text)) : text);
}
