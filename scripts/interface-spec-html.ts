/**
 * Pure rendering of the interface specification to a self-contained HTML page whose headings carry
 * the ids of interfaceSectionAnchor(). scripts/render-interface-spec.ts does the I/O.
 */
import { createHash } from 'node:crypto';
import MarkdownIt from 'markdown-it';
import { githubAnchor } from '../fixtures/requirements.ts';
import { INTERFACE_REFERENCE_FILE } from '../fixtures/report-metadata.ts';

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The Markdown as HTML, each heading with the GitHub-style id that interfaceSectionAnchor() computes. */
export function renderSpecification(markdown: string): string {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  md.core.ruler.push('heading_ids', (state) => {
    state.tokens.forEach((token, index) => {
      if (token.type !== 'heading_open') return;
      const inline = state.tokens[index + 1];
      const text = (inline?.children ?? []).map((child) => child.content).join('');
      token.attrSet('id', githubAnchor(text));
    });
  });
  return md.render(markdown);
}

export function specificationPage(markdown: string, sourceLabel: string): string {
  const title = /^# (.+)$/m.exec(markdown)?.[1] ?? 'Interface specification';
  const sha256 = createHash('sha256').update(markdown).digest('hex');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font: 16px/1.55 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1b1b1b; }
  table { border-collapse: collapse; margin: 1rem 0; }
  th, td { border: 1px solid #c8c8c8; padding: .3rem .6rem; text-align: left; vertical-align: top; }
  code { background: #f2f2f2; padding: 0 .2rem; }
  :target { background: #fff3b0; scroll-margin-top: 1rem; }
  .source { color: #5a5a5a; font-size: .9rem; border-bottom: 1px solid #ddd; padding-bottom: .5rem; }
</style>
</head>
<body>
<p class="source">Rendered from <code>${escapeHtml(sourceLabel)}</code> (SHA-256 <code>${sha256}</code>).
The operations are also described in the <a href="${INTERFACE_REFERENCE_FILE}">OpenAPI reference</a>.</p>
${renderSpecification(markdown)}</body>
</html>
`;
}
