// The rules page: the project's reading of a game's rule book
// (docs/rules/<game>.md, served by the server), shown as simple HTML.

const game = location.pathname.split('/')[2] || '';
const box = /** @type {HTMLElement} */ (document.getElementById('rules'));

/** Inline Markdown: code, bold, italics and links, on escaped text. */
function inline(/** @type {string} */ text) {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return escaped
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*]+)\*/g, '<em>$1</em>')
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, (_, t, href) => (/^(https?:|\/|#)/.test(href) ? `<a href="${href}">${t}</a>` : t));
}

/** A small Markdown reader: headings, lists, tables and paragraphs. */
function render(/** @type {string} */ md) {
  const out = [];
  const lines = md.split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (/^#{1,6} /.test(line)) {
      const level = Math.min(6, (line.match(/^#+/) || [''])[0].length + 1);
      out.push(`<h${level}>${inline(line.replace(/^#+ /, ''))}</h${level}>`);
      i++;
    } else if (/^\s*[-*] /.test(line)) {
      const items = [];
      while (i < lines.length && /^\s*[-*] /.test(lines[i])) items.push(`<li>${inline(lines[i++].replace(/^\s*[-*] /, ''))}</li>`);
      out.push(`<ul>${items.join('')}</ul>`);
    } else if (/^\s*\d+\. /.test(line)) {
      const items = [];
      while (i < lines.length && /^\s*\d+\. /.test(lines[i])) items.push(`<li>${inline(lines[i++].replace(/^\s*\d+\. /, ''))}</li>`);
      out.push(`<ol>${items.join('')}</ol>`);
    } else if (line.startsWith('|')) {
      const rows = [];
      while (i < lines.length && lines[i].startsWith('|')) rows.push(lines[i++]);
      const cells = rows.filter((r) => !/^\|[\s:|-]+\|$/.test(r)).map((r) => r.slice(1, -1).split('|').map((c) => inline(c.trim())));
      const [head, ...body] = cells;
      out.push(`<div class="table-wrap"><table><thead><tr>${head.map((c) => `<th>${c}</th>`).join('')}</tr></thead><tbody>${body.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table></div>`);
    } else if (line.startsWith('```')) {
      const code = [];
      i++;
      while (i < lines.length && !lines[i].startsWith('```')) code.push(lines[i++]);
      i++;
      out.push(`<pre>${inline(code.join('\n'))}</pre>`);
    } else if (line.trim() === '') {
      i++;
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() !== '' && !/^(#|\||```|\s*[-*] |\s*\d+\. )/.test(lines[i])) para.push(lines[i++]);
      out.push(`<p>${inline(para.join(' '))}</p>`);
    }
  }
  return out.join('\n');
}

async function main() {
  const [guide, readings] = await Promise.all([fetch(`/static/guide/${game}.md`), fetch(`/rules/${game}.md`)]);
  if (!guide.ok && !readings.ok) {
    box.textContent = 'No rules for this game.';
    return;
  }
  // A player's summary first; the project's readings of the book, for the
  // curious, folded below it.
  const summary = guide.ok ? render(await guide.text()) : '';
  const detail = readings.ok
    ? `<details class="readings"><summary>How tabula reads the rule book (every open point, for the curious)</summary>${render(await readings.text())}</details>`
    : '';
  box.innerHTML = `${summary}${detail}<p><a href="/">Back to the lobby</a></p>`;
  const h = box.querySelector('h2');
  if (h) document.title = `tabula: ${h.textContent} rules`;
}

main();
