/**
 * `user:pass@` in the URL: undici refuses or ignores userinfo, so it becomes
 * `Authorization: Basic base64(user:pass)` (percent-decoded, RFC 7617) and the URL requested
 * loses it. Undefined when the URL has no userinfo (or cannot be parsed: the caller reports it).
 */
export function splitUserinfo(url: string): { url: string; authorization: string } | undefined {
  if (!url.includes("@")) return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.username === "" && u.password === "") return undefined;
  let credentials: string;
  try {
    credentials = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
  } catch {
    credentials = `${u.username}:${u.password}`;
  }
  u.username = "";
  u.password = "";
  return { url: u.toString(), authorization: `Basic ${Buffer.from(credentials, "utf8").toString("base64")}` };
}
