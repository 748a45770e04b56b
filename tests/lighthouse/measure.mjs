// Lighthouse's Node API over one Chromium that is already running (tests/lighthouse/run.py
// starts it): one Node process for every page, so Lighthouse's modules load once instead of
// once a page, which is most of the CLI's time on a small machine.
//
// Reads a plan as JSON on standard input:
//   {"port": 9222, "categories": [...],
//    "runs": [{"url", "cookies": [{"name", "value"}], "formFactor", "out"}]}
// and writes each run's JSON report to its "out" path. Exits non-zero if a run fails.
//
// The session goes into the browser's own cookie jar, not into an extra Cookie header: a
// response that sets a cookie (the CSRF token, say) fills the jar, and from then on Chromium
// sends the jar's cookies instead of the header's, logged out. Lighthouse keeps cookies when
// it clears the site's storage before a run, so the jar is set again for each run's user.
import {readFileSync, writeFileSync} from 'node:fs';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer from 'puppeteer-core';

const plan = JSON.parse(readFileSync(0, 'utf8'));
const browser = await puppeteer.connect({browserURL: `http://127.0.0.1:${plan.port}`});
for (const run of plan.runs) {
  const page = await browser.newPage();
  const session = await page.createCDPSession();
  await session.send('Network.clearBrowserCookies');
  await session.send('Network.setCookies', {
    cookies: run.cookies.map(({name, value}) => ({name, value, url: run.url})),
  });
  const flags = {
    output: 'json',
    logLevel: 'error',
    onlyCategories: plan.categories,
    // The screenshot serves the report's viewer, not the two categories measured here.
    disableFullPageScreenshot: true,
    maxWaitForLoad: 30000,
  };
  const config = run.formFactor === 'desktop' ? desktopConfig : undefined;
  const result = await lighthouse(run.url, flags, config, page);
  if (!result || result.lhr.runtimeError) {
    const why = result ? result.lhr.runtimeError.message : 'no result';
    console.error(`lighthouse failed on ${run.url}: ${why}`);
    process.exit(1);
  }
  writeFileSync(run.out, result.report);
  await session.detach();
  await page.close();
}
await browser.disconnect();
