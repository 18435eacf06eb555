import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { HOUR_MS } from "../common/time.js";
import { parsePublishedAt } from "./news-jsonl.js";

/** The charset of an HTML payload: the HTTP Content-Type's, else a `<meta>` in the first 4 KiB, else utf-8. */
export function htmlCharset(contentType: string | null | undefined, bytes: Uint8Array): string {
  const fromHeader = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
  if (fromHeader) return fromHeader.toLowerCase();
  const head = Buffer.from(bytes.subarray(0, 4096)).toString("latin1");
  const meta =
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1] ??
    /<meta[^>]+content\s*=\s*["'][^"']*charset=([\w.:-]+)/i.exec(head)?.[1];
  return (meta ?? "utf-8").toLowerCase();
}

/** Decodes with the named charset (WHATWG labels: gb2312, windows-1251, shift_jis …); unknown labels fall back to utf-8. */
export function decodeHtml(bytes: Uint8Array, charset: string): { html: string; charset: string } {
  try {
    return { html: new TextDecoder(charset).decode(bytes), charset };
  } catch {
    return { html: new TextDecoder("utf-8").decode(bytes), charset: "utf-8" };
  }
}

export interface ArticleText {
  title: string;
  text: string;
  /** the page's own publication time (JSON-LD datePublished, article:published_time …), if any */
  selfReported: number | null;
}

const SCRIPT_RE = /<script\b(?![^>]*application\/ld\+json)[^>]*>[\s\S]*?<\/script\s*>/gi;
const NON_CONTENT_RE = /<(style|noscript|svg|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const COMMENT_RE = /<!--[\s\S]*?-->/g;

/**
 * Drops what Readability discards anyway (scripts other than JSON-LD, which carries
 * datePublished; styles, noscript, svg, templates, comments) before the DOM is built: on the
 * CC-MAIN sample this halves the extraction time with identical article texts.
 */
export function stripNonContent(html: string): string {
  return html.replace(SCRIPT_RE, "").replace(NON_CONTENT_RE, "").replace(COMMENT_RE, "");
}

/** Article title, text (whitespace collapsed) and self-reported publish time, by Readability over linkedom. */
export function extractArticle(html: string): ArticleText | null {
  const { document } = parseHTML(stripNonContent(html));
  const fallbackTitle = (document.querySelector("title")?.textContent ?? "").trim();
  const art = new Readability(document as unknown as Document, { charThreshold: 0 }).parse();
  if (!art) return null;
  const text = (art.textContent ?? "").replace(/\s+/g, " ").trim();
  const title = (art.title ?? "").replace(/\s+/g, " ").trim() || fallbackTitle;
  const selfReported = art.publishedTime ? parsePublishedAt(art.publishedTime.trim()) : null;
  return { title, text, selfReported };
}

/** data.md's publish clock of a crawled article: how far the crawl may corroborate a self-reported time. */
export const CORROBORATION_MS = 2 * HOUR_MS;

/**
 * The publish clock of a crawled article (data.md): the self-reported time when the crawl
 * corroborates it (|crawl − self| ≤ 2 h), else crawl time − 2 h (no claim, a far-earlier claim that
 * the crawl cannot confirm, or a claim after the crawl by more than 2 h).
 */
export function publishClock(crawl: number, selfReported: number | null): { t: number; source: "self" | "crawl" } {
  if (selfReported !== null && Math.abs(crawl - selfReported) <= CORROBORATION_MS)
    return { t: selfReported, source: "self" };
  return { t: crawl - CORROBORATION_MS, source: "crawl" };
}
