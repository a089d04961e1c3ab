// `npm run eval`: how right the rules are on real agent code. Prints
// recognition, and for require-unbounded-self-reading-tool and
// declare-tool-state-scope the confusion table, recall and precision
// (judgement labels left out), then every miss and false report with its
// file:line and reason. `--json` prints the whole report; package names as
// arguments restrict it (`npm run eval -- fastmcp`).
import { evaluateAccuracy } from './accuracy.mjs';

const args = process.argv.slice(2);
const json = args.includes('--json');
const only = args.filter((arg) => !arg.startsWith('--'));
const report = await evaluateAccuracy(only.length > 0 ? { only } : {});

if (json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const percent = (value) => `${(value * 100).toFixed(1)} %`;
  console.log('Packages:');
  for (const item of report.packages) {
    const marker = item.set === 'held-out' ? ' (held out)' : '';
    const errors = item.parseErrors.length > 0 ? `, ${item.parseErrors.length} files do not parse` : '';
    console.log(
      `  ${item.package.padEnd(56)} ${String(item.recognised).padStart(3)}/${String(item.labelled).padEnd(3)} tools recognised, ${item.files} files${errors}${marker}`,
    );
  }
  const { recognition } = report;
  // Held-out packages are first contact: their figures are the honest ones, reported apart, never tuned into.
  const line = (name, group) =>
    `  ${name.padEnd(9)} ${String(group.packages).padStart(3)} packages  recognition ${String(group.recognised ?? group.recognition.recognised).padStart(4)}/${String(group.recognition.labelled).padEnd(4)} ${percent(group.recognition.rate).padStart(7)}` +
    `  self-reading recall ${percent(group.selfReading.recall).padStart(7)} precision ${percent(group.selfReading.precision).padStart(7)}` +
    `  stateful recall ${percent(group.stateful.recall).padStart(7)} precision ${percent(group.stateful.precision).padStart(7)}`;
  console.log('\nBy set:');
  for (const name of ['tuned', 'held-out']) if (report.sets[name]) console.log(line(name, report.sets[name]));
  console.log(
    line('whole', {
      packages: report.packages.length,
      recognition,
      recognised: recognition.recognised,
      selfReading: report.selfReading,
      stateful: report.stateful,
    }),
  );
  console.log(`\nRecognition: ${recognition.recognised}/${recognition.labelled} labelled tools = ${percent(recognition.rate)}`);
  for (const [title, table] of [
    ['Self-reading (require-unbounded-self-reading-tool)', report.selfReading],
    ['Stateful (declare-tool-state-scope)', report.stateful],
  ]) {
    console.log(`\n${title}`);
    console.log(`                 reported   not reported`);
    console.log(`  label yes      ${String(table.truePositive).padStart(8)}   ${String(table.falseNegative).padStart(12)}`);
    console.log(`  label no       ${String(table.falsePositive).padStart(8)}   ${String(table.trueNegative).padStart(12)}`);
    console.log(`  judgement (left out): ${table.judgement}`);
    console.log(`  recall ${percent(table.recall)}, precision ${percent(table.precision)}`);
    if (table.misses.length > 0) console.log('  misses:');
    for (const miss of table.misses) console.log(`    ${miss.where}\n      rule: ${miss.rule}\n      label: ${miss.why}`);
    if (table.falseReports.length > 0) console.log('  false reports:');
    for (const report of table.falseReports) console.log(`    ${report.where}\n      rule: ${report.rule}\n      label: ${report.why}`);
  }
  if (recognition.unrecognised.length > 0) {
    console.log('\nNot recognised as tools:');
    for (const item of recognition.unrecognised) console.log(`  ${item.where} [${item.shape}]`);
  }
  if (report.unlabelledReports.length > 0) {
    console.log('\nReports on recognised tools that have no label (not scored):');
    for (const item of report.unlabelledReports) {
      console.log(`  ${item.where}${item.selfReading ? ' self-reading' : ''}${item.stateful ? ' stateful' : ''}`);
    }
  }
}
