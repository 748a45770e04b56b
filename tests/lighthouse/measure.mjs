// Lighthouse's Node API over one Chromium that is already running (tests/lighthouse/run.py
// starts it): one Node process for every page, so Lighthouse's modules load once instead of
// once a page, which is most of the CLI's time on a small machine.
//
// Reads a plan as JSON on standard input:
//   {"port": 9222, "categories": [...], "runs": [{"url", "cookie", "formFactor", "out"}]}
// and writes each run's JSON report to its "out" path. Exits non-zero if a run fails.
import {readFileSync, writeFileSync} from 'node:fs';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';

const plan = JSON.parse(readFileSync(0, 'utf8'));
for (const run of plan.runs) {
  const flags = {
    port: plan.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: plan.categories,
    extraHeaders: {Cookie: run.cookie},
    // The screenshot serves the report's viewer, not the two categories measured here.
    disableFullPageScreenshot: true,
    maxWaitForLoad: 30000,
  };
  const config = run.formFactor === 'desktop' ? desktopConfig : undefined;
  const result = await lighthouse(run.url, flags, config);
  if (!result || result.lhr.runtimeError) {
    const why = result ? result.lhr.runtimeError.message : 'no result';
    console.error(`lighthouse failed on ${run.url}: ${why}`);
    process.exit(1);
  }
  writeFileSync(run.out, result.report);
}
