// The rationale's text as pieces of sentences, rendered three ways from the same pieces: Markdown
// (the alert's rationale), plain text and HTML (alert e-mail). Register text is a literal piece,
// so that it can never become Markdown syntax, a link or HTML.

import { escapeHtml, normalizeLink } from '../../markdown.ts';
import { oneLine } from '../../text.ts';

/** A piece of a sentence: our words, or text from the register (a mark, an owner), or a link. */
export type Piece = string | { literal: string } | { link: string; text: string };
export type Block = { heading?: string; pieces: Piece[] } | { heading: string; items: Piece[][] };

// Register text as a literal piece; the matching rules' evidence is written with the same function.
export { lit } from '../../matching/evidence.ts';

/**
 * Register text as a Markdown code span: nothing inside a code span is parsed, so `<script>`,
 * `[x](javascript:…)` or `![](…)` stay text. Line breaks and other control characters become
 * spaces; the fence is one backtick longer than the longest run of backticks inside.
 */
export function codeSpan(text: string): string {
  const flat = oneLine(text);
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

export function markdownOf(pieces: readonly Piece[]): string {
  return pieces
    .map((p) =>
      typeof p === 'string' ? p : 'literal' in p ? codeSpan(p.literal) : `[${p.text}](${p.link})`,
    )
    .join('');
}

export function plainOf(pieces: readonly Piece[]): string {
  return pieces
    .map((p) =>
      typeof p === 'string' ? p : 'literal' in p ? oneLine(p.literal) : `${p.text}: ${p.link}`,
    )
    .join('');
}

function htmlOf(pieces: readonly Piece[]): string {
  return pieces
    .map((p) =>
      typeof p === 'string'
        ? escapeHtml(p)
        : 'literal' in p
          ? `<code>${escapeHtml(oneLine(p.literal))}</code>`
          : `<a href="${escapeHtml(normalizeLink(p.link))}">${escapeHtml(p.text)}</a>`,
    )
    .join('');
}

/** The blocks as markdown-it renders their Markdown (renderMarkdown): paragraphs and lists. */
export function renderHtml(blocks: readonly Block[]): string {
  return blocks
    .map((b) => {
      if ('items' in b) {
        const items = b.items.map((i) => `<li>${htmlOf(i)}</li>\n`).join('');
        return `<p><strong>${escapeHtml(b.heading)}</strong></p>\n<ul>\n${items}</ul>\n`;
      }
      const head = b.heading === undefined ? '' : `<strong>${escapeHtml(b.heading)}.</strong> `;
      return `<p>${head}${htmlOf(b.pieces)}</p>\n`;
    })
    .join('');
}

export function render(
  blocks: readonly Block[],
  of: (pieces: readonly Piece[]) => string,
  md: boolean,
) {
  return blocks
    .map((b) => {
      const head = b.heading === undefined ? '' : md ? `**${b.heading}.** ` : `${b.heading}. `;
      if ('items' in b) {
        const items = b.items.map((i) => `- ${of(i)}`).join('\n');
        return md ? `**${b.heading}**\n\n${items}` : `${b.heading}:\n${items}`;
      }
      return head + of(b.pieces);
    })
    .join('\n\n');
}
