// The one machine-readable line every benchmark prints per figure, so that `npm run bench`
// (bench/run-all.mjs) can gather all of them into one table of ratios (issue 13 §7).
//
//   BENCH_RESULT {"bench":"first-load","measure":"/login JS transferred","figure":143.2,"unit":"KB",
//                 "baseline":612.0,"baselineLabel":"/login JS decoded","ratio":0.234,
//                 "goal":"≤ 150 KB","met":true}
//
// - figure and baseline are numbers in the same unit, both measured in the same run;
// - ratio is figure / baseline (computed here);
// - goal is the goal in words, met is whether this run reached it (null when the measure has
//   no goal and is only reported).
// A bench may print any human-readable output besides these lines.

export const BENCH_RESULT_PREFIX = 'BENCH_RESULT ';

/**
 * Prints one figure as a BENCH_RESULT line and returns the record.
 * @param {{bench: string, measure: string, figure: number, unit: string, baseline: number,
 *   baselineLabel: string, goal?: string, met?: boolean | null}} result
 */
export function reportResult(result) {
  const ratio = result.baseline > 0 ? result.figure / result.baseline : null;
  const record = {
    bench: result.bench,
    measure: result.measure,
    figure: round(result.figure),
    unit: result.unit,
    baseline: round(result.baseline),
    baselineLabel: result.baselineLabel,
    ratio: ratio === null ? null : round(ratio, 3),
    goal: result.goal ?? '',
    met: result.met ?? null,
  };
  console.log(`${BENCH_RESULT_PREFIX}${JSON.stringify(record)}`);
  return record;
}

/** Reads the BENCH_RESULT records out of a bench's output. */
export function parseResults(output) {
  const records = [];
  for (const line of output.split('\n')) {
    const at = line.indexOf(BENCH_RESULT_PREFIX);
    if (at === -1) continue;
    try {
      records.push(JSON.parse(line.slice(at + BENCH_RESULT_PREFIX.length)));
    } catch {
      // A torn line (interleaved output) is not a result.
    }
  }
  return records;
}

function round(value, digits = 2) {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
