/**
 * Every relative link in README.md, docs/*.md and reference/README.md names a file that exists,
 * and every `#anchor` into a markdown file names one of its headings (GitHub's slugs).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "./helpers/paths.js";

const pages = [
  "README.md",
  "reference/README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** The text outside fenced code blocks and inline code spans, where links are links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^#{1,6} +(.+?) *$/gm)) {
    const base = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    found.add(n === 0 ? base : `${base}-${n}`);
  }
  return found;
}

function links(page: string): string[] {
  return [...prose(readFileSync(join(root, page), "utf8")).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((href) => !/^[a-z]+:/i.test(href));
}

describe("links in the README and docs", () => {
  it("reads some pages with links", () => {
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.flatMap(links).length).toBeGreaterThan(20);
  });

  for (const page of pages)
    it(`${page}: every relative link resolves`, () => {
      const broken: string[] = [];
      for (const href of links(page)) {
        const [path, anchor] = href.split("#", 2) as [string, string | undefined];
        const target = path === "" ? join(root, page) : join(root, dirname(page), decodeURIComponent(path));
        if (!existsSync(target)) {
          broken.push(`${href}: no ${relative(root, target)}`);
          continue;
        }
        if (anchor !== undefined && target.endsWith(".md") && !anchors(readFileSync(target, "utf8")).has(anchor))
          broken.push(`${href}: no heading #${anchor} in ${relative(root, target)}`);
      }
      expect(broken).toEqual([]);
    });
});
