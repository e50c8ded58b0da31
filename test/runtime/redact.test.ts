import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRedactor, escapeRegExp, isCredentialQueryKey, isSensitiveHeader, redactUrl, secretsFromEnv, secretsOf } from "../../runtime/redact.js";

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
  it.each([
    "authorization",
    "Proxy-Authorization",
    "Cookie",
    "set-cookie",
    "X-API-Key",
    "api-key",
    "x-auth-token",
    "X-Client-Secret",
    "x-password",
    "helius_key",
    "x-access-token",
  ])("%s is sensitive", (name) => expect(isSensitiveHeader(name)).toBe(true));

  it.each(["content-type", "accept", "user-agent", "x-request-id", "content-length", "keep-alive"])("%s is not sensitive", (name) => {
    expect(isSensitiveHeader(name)).toBe(false);
  });
});

describe("secretsOf", { timeout: 5_000 }, () => {
  it("takes the values of credential-like query keys, as written and decoded, and no other query value", () => {
    const secrets = secretsOf("https://h/rpc?api-key=abc%2Bdef%3D&limit=1&mode=full&format=json&cluster=mainnet");
    expect(secrets).toContain("abc%2Bdef%3D");
    expect(secrets).toContain("abc+def=");
    for (const plain of ["full", "json", "mainnet", "1"]) expect(secrets).not.toContain(plain);
  });

  it("takes a short credential too (masked as a whole token only)", () => {
    expect(secretsOf("https://h/rpc?token=ab")).toEqual(["ab"]);
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
    // Every header value given for a target is a secret, whatever its name.
    expect(secrets).toContain("application/json");
    expect(secrets).toContain("req-000111");
  });

  it("takes headers with names that say nothing (x-jwt, x-session-id) and --secret values", () => {
    const secrets = secretsOf("https://h/", { "x-jwt": "jwt-value-1", "x-session-id": "sess-42" }, ["named secret", "ab"]);
    expect(secrets).toEqual(expect.arrayContaining(["jwt-value-1", "sess-42", "named secret", "named%20secret", "ab"]));
  });

  it("still finds query values in a URL that does not parse", () => {
    expect(secretsOf("::not-a-url?api-key=HIDDENVALUE&x=1")).toContain("HIDDENVALUE");
  });

  it("is empty with nothing secret", () => {
    expect(secretsOf(undefined)).toEqual([]);
    expect(secretsOf("http://127.0.0.1:8784/?format=json&verbose=1")).toEqual([]);
  });
});

describe("isCredentialQueryKey and secretsFromEnv", { timeout: 5_000 }, () => {
  it.each(["api-key", "API-KEY", "apikey", "api_key", "key", "token", "access_token", "auth", "secret", "password", "client_secret", "x-session"])(
    "%s names a credential",
    (name) => {
      expect(isCredentialQueryKey(name)).toBe(true);
    },
  );
  it.each(["format", "cluster", "limit", "verbose", "mode", "commitment"])("%s does not", (name) => expect(isCredentialQueryKey(name)).toBe(false));

  it("reads PHOTON_SECRETS one value per line", () => {
    expect(secretsFromEnv({ PHOTON_SECRETS: "first, with comma\r\n\n  second  \n" })).toEqual(["first, with comma", "second"]);
    expect(secretsFromEnv({})).toEqual([]);
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

  it("masks a short secret only where it stands as a whole token", () => {
    const redact = createRedactor(["ab", "7"]);
    expect(redact("ab tab abc (ab) 7 17 7x ab")).toBe("*** tab abc (***) *** 17 7x ***");
  });

  it("masks the JSON-escaped, HTML-escaped and base64 forms of a secret", () => {
    const secret = 'k"e<y>\\&1';
    const redact = createRedactor([secret]);
    const json = JSON.stringify({ v: secret });
    expect(redact(json)).toBe('{"v":"***"}');
    expect(redact("<p>k&quot;e&lt;y&gt;\\&amp;1</p>")).toBe("<p>***</p>");
    expect(redact(Buffer.from(secret).toString("base64"))).toBe("***");
  });

  it("masks a secret's base64 inside longer base64, at every byte alignment", () => {
    const secret = "hk_live_5f3a9c0e7b2d4a61";
    const redact = createRedactor([secret]);
    for (const lead of ["", "a", "ab", "abc", "abcd"]) {
      for (const tail of ["", "z", "zy", "zyx"]) {
        const b64 = Buffer.from(`${lead}${secret}${tail}`).toString("base64");
        const out = redact(b64);
        expect(out, `${lead}|${tail}`).toContain("***");
        // Whatever is left decodes to no 8-character piece of the secret.
        for (const piece of out.split("***")) {
          const decoded = Buffer.from(piece, "base64").toString("latin1");
          for (let i = 0; i + 8 <= secret.length; i++) expect(decoded).not.toContain(secret.slice(i, i + 8));
        }
      }
    }
  });

  it("masks the piece of a secret left before an excerpt's cut mark", () => {
    const secret = "hk_live_5f3a9c0e7b2d4a61";
    const redact = createRedactor([secret]);
    for (let n = 3; n < secret.length; n++) {
      const excerpt = `${"p".repeat(20)}${secret.slice(0, n)}…`;
      expect(redact(excerpt)).toBe(`${"p".repeat(20)}***…`);
    }
    expect(redact("hk…")).toBe("hk…"); // two characters say nothing
    expect(redact(`a ${secret} b hk_live…`)).toBe("a *** b ***…");
  });
});

describe("createRedactor with a very long secret", { timeout: 10_000 }, () => {
  it("masks a 1 MB secret whole and cut, where one regex of it would be refused by the engine", () => {
    const secret = `${"k".repeat(1_000_000)}Z`;
    const redact = createRedactor([secret, "short-secret-1"]);
    expect(redact(`a ${secret} b short-secret-1`)).toBe("a *** b ***");
    expect(redact(`x ${secret.slice(0, 3000)}…`)).toBe("x ***…");
  });
});

describe("escapeRegExp", () => {
  it("gives a pattern matching exactly the text, anywhere in a pattern, with or without the u flag", () => {
    const unit = fc.constantFrom(..."a-z]^[\\$.*+?(){}|/-0é😀".split(""), "\n");
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 12 }), fc.string({ unit, maxLength: 3 }), (text, other) => {
        const escaped = escapeRegExp(text);
        for (const flags of ["", "u"]) {
          const whole = new RegExp(`^${escaped}$`, flags);
          expect(whole.test(text)).toBe(true);
          if (other !== text) expect(whole.test(other)).toBe(false);
          // In a class, each character is itself: `a-z` is three characters, not a range.
          if (text.length > 0) {
            const inClass = new RegExp(`^[${escaped}]+$`, flags);
            if (flags === "u" || !/[\ud800-\udfff]/.test(text)) expect(inClass.test(text)).toBe(true);
            expect(inClass.test("b") && !text.includes("b")).toBe(false);
          }
        }
      }),
      { seed: 17, numRuns: 2000 },
    );
  });
});
