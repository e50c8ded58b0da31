import { describe, expect, it } from "vitest";
import { createRedactor, isSensitiveHeader, redactUrl, secretsOf } from "../../runtime/redact.js";

describe("redactUrl", { timeout: 5_000 }, () => {
  it("masks every query value and keeps the names, host, port and path", () => {
    expect(redactUrl("https://rpc.example.com:8443/v1/rpc?api-key=abc123def&cluster=mainnet")).toBe(
      "https://rpc.example.com:8443/v1/rpc?api-key=***&cluster=***",
    );
  });

  it("masks userinfo and drops the fragment", () => {
    const out = redactUrl("https://alice:s3cr3t-pw@rpc.example.com/rpc?token=zzzz#frag-secret");
    expect(out).toBe("https://***@rpc.example.com/rpc?token=***");
    expect(out).not.toContain("alice");
    expect(out).not.toContain("s3cr3t");
    expect(out).not.toContain("frag-secret");
  });

  it("masks encoded and empty values, keeps bare names", () => {
    expect(redactUrl("http://h/p?a=x%20y%26z&b=&flag")).toBe("http://h/p?a=***&b=***&flag");
  });

  it("leaves a URL without credentials as it is", () => {
    expect(redactUrl("http://127.0.0.1:8784/")).toBe("http://127.0.0.1:8784/");
  });

  it("gives <invalid url> for text that is not a URL, without echoing it", () => {
    expect(redactUrl("not a url ?api-key=SECRETSECRET")).toBe("<invalid url>");
    expect(redactUrl("")).toBe("<invalid url>");
  });
});

describe("isSensitiveHeader", { timeout: 5_000 }, () => {
  it.each(["authorization", "Proxy-Authorization", "Cookie", "set-cookie", "X-API-Key", "api-key", "x-auth-token", "X-Client-Secret", "x-password", "helius_key", "x-access-token"])(
    "%s is sensitive",
    (name) => expect(isSensitiveHeader(name)).toBe(true),
  );

  it.each(["content-type", "accept", "user-agent", "x-request-id", "content-length", "keep-alive"])("%s is not sensitive", (name) => {
    expect(isSensitiveHeader(name)).toBe(false);
  });
});

describe("secretsOf", { timeout: 5_000 }, () => {
  it("takes query values of 4+ characters, as written and decoded, and skips short ones", () => {
    const secrets = secretsOf("https://h/rpc?api-key=abc%2Bdef%3D&limit=1&mode=full");
    expect(secrets).toContain("abc%2Bdef%3D");
    expect(secrets).toContain("abc+def=");
    expect(secrets).toContain("full");
    expect(secrets).not.toContain("1");
  });

  it("adds URL-encoded forms of a decoded value", () => {
    const secrets = secretsOf("https://h/rpc?key=a%20b%2Fc%3Dd");
    expect(secrets).toEqual(expect.arrayContaining(["a b/c=d", "a%20b%2Fc%3Dd", "a+b%2Fc%3Dd"]));
  });

  it("takes userinfo user and password", () => {
    const secrets = secretsOf("https://someuser:p%40ssword@h/rpc");
    expect(secrets).toEqual(expect.arrayContaining(["someuser", "p%40ssword", "p@ssword"]));
  });

  it("takes sensitive header values, the credential after the scheme, and decoded basic auth", () => {
    const basic = Buffer.from("bob:hunter2!").toString("base64");
    const secrets = secretsOf(undefined, {
      Authorization: "Bearer eyJhbGciOi.payload.sig",
      "x-api-key": "k-123456",
      "proxy-authorization": `Basic ${basic}`,
      cookie: "session=abcdef123; theme=dark",
      "content-type": "application/json",
      "x-request-id": "req-000111",
    });
    expect(secrets).toEqual(
      expect.arrayContaining(["Bearer eyJhbGciOi.payload.sig", "eyJhbGciOi.payload.sig", "k-123456", basic, "bob:hunter2!", "hunter2!", "abcdef123", "dark"]),
    );
    expect(secrets).not.toContain("application/json");
    expect(secrets).not.toContain("req-000111");
  });

  it("still finds query values in a URL that does not parse", () => {
    expect(secretsOf("::not-a-url?api-key=HIDDENVALUE&x=1")).toContain("HIDDENVALUE");
  });

  it("is empty with nothing secret", () => {
    expect(secretsOf(undefined)).toEqual([]);
    expect(secretsOf("http://127.0.0.1:8784/", { accept: "application/json" })).toEqual([]);
  });
});

describe("createRedactor", { timeout: 5_000 }, () => {
  it("replaces every occurrence of every secret", () => {
    const redact = createRedactor(["SECRET1", "tok-abc"]);
    expect(redact("a SECRET1 b tok-abc c SECRET1")).toBe("a *** b *** c ***");
  });

  it("masks the longest secret first, so a longer one is not left half visible", () => {
    const redact = createRedactor(["abcd", "abcdefgh"]);
    expect(redact("x abcdefgh y abcd")).toBe("x *** y ***");
  });

  it("treats regex metacharacters literally", () => {
    const redact = createRedactor(["a.b*c(d)", "$1+?"]);
    expect(redact("axbxxc a.b*c(d) $1+?")).toBe("axbxxc *** ***");
  });

  it("returns the input untouched when there are no secrets", () => {
    const redact = createRedactor([]);
    const text = "nothing to hide";
    expect(redact(text)).toBe(text);
    expect(createRedactor([""])("a b")).toBe("a b");
  });

  it("together with secretsOf hides raw and encoded credentials in echoed text", () => {
    const url = "https://user1:pass word@h/rpc?api-key=k3y/with=chars";
    const redact = createRedactor(secretsOf(url, { authorization: "Bearer TOKEN-XYZ" }));
    const echoed = `got k3y/with=chars and ${encodeURIComponent("k3y/with=chars")}, user1, pass word, pass%20word, TOKEN-XYZ`;
    const out = redact(echoed);
    for (const s of ["k3y/with=chars", "k3y%2Fwith%3Dchars", "user1", "pass word", "pass%20word", "TOKEN-XYZ"]) expect(out).not.toContain(s);
    expect(out).toBe("got *** and ***, ***, ***, ***, ***");
  });
});
