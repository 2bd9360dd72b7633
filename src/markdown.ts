import MarkdownIt from 'markdown-it';

// Rationales are Markdown built by the service around text from the register (mark texts, owner
// names), which stays inside code spans. Rendering is still locked down, so that no stored text can
// ever become markup: raw HTML is off (shown as text), bare URLs are not turned into links, and
// markdown-it's own link check refuses javascript:, vbscript:, file: and data: URLs (but images).
const renderer = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** Safe HTML for a rationale (or any Markdown the service stored). */
export function renderMarkdown(markdown: string): string {
  return renderer.render(markdown);
}
