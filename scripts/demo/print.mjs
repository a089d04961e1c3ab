// How the demo prints: short lines a newcomer reads top to bottom; what only
// an expert wants (diffs, digests, receipts as JSON) waits for --verbose.
export const verbose = process.argv.includes('--verbose');

const WIDTH = 78;

export function problemHeading(number, name, plainWords) {
  sceneHeading(`Problem ${number}: ${name}`, plainWords);
}

export function sceneHeading(title, plainWords) {
  console.log(`\n${'═'.repeat(WIDTH)}\n${title}\n${'═'.repeat(WIDTH)}`);
  for (const line of wrap(plainWords, WIDTH)) console.log(line);
}

export function wayHeading(way, command) {
  console.log(`\n▸ ${way}${command ? `  ($ ${command})` : ''}`);
}

/** A bullet; leading spaces in `text` indent it under the bullet before. */
export function point(text) {
  const indent = ' '.repeat(/^ */.exec(text)[0].length);
  const [first, ...rest] = wrap(text.trimStart(), WIDTH - 4 - indent.length);
  console.log(`  ${indent}• ${first}`);
  for (const line of rest) console.log(`    ${indent}${line}`);
}

export function detail(text) {
  if (!verbose) return;
  console.log(
    text
      .split('\n')
      .map((line) => `      ${line}`)
      .join('\n'),
  );
}

/** A message's first sentence: what it says is wrong; the rest (what to do, why) shows with --verbose. */
export function firstSentence(message) {
  const match = /^(.+?[.:])(\s|$)/.exec(message);
  return match ? match[1] : message;
}

function wrap(text, width) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** A plain table: the first row is the header. */
export function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  const render = (row) =>
    row
      .map((cell, column) => String(cell).padEnd(widths[column]))
      .join('  ')
      .trimEnd();
  console.log(render(rows[0]));
  console.log(widths.map((width) => '─'.repeat(width)).join('  '));
  for (const row of rows.slice(1)) console.log(render(row));
}
