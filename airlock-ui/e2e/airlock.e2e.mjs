#!/usr/bin/env node
// End-to-end test of the airlock UI in a real browser (Debian's chromium driven by playwright-core)
// against a RUNNING platform: the UI, librarian, engineer and capabilities manager with Kafka and
// PostgreSQL (`./toolsmith up`). Nothing here stubs a service.
//
//   cd airlock-ui/e2e && npm ci && node airlock.e2e.mjs --base-url http://127.0.0.1:8080
//
// Options (all optional):
//   --base-url URL        the airlock UI (default http://127.0.0.1:8080)
//   --spec FILE           the OpenAPI document to add as a source (default: fixtures/bikewise.openapi.yaml, 4 operations)
//   --credentials FILE    KEY=VALUE file with UI_ADMIN_PASSWORD / UI_VIEWER_PASSWORD (default .state/credentials.env)
//   --screenshots DIR     where each screen's PNG goes (default docs/screenshots)
//   --chromium PATH       the browser (default /usr/bin/chromium)
//   --timeout SECONDS     how long to wait for the scan, the build and the search (default 180)
//   --headed              show the browser (needs a display)
// Passwords may also come from TOOLSMITH_UI_ADMIN_PASSWORD / TOOLSMITH_UI_VIEWER_PASSWORD; user names from
// TOOLSMITH_UI_ADMIN_USER / TOOLSMITH_UI_VIEWER_USER (default admin / viewer).
//
// Flow: sign in as admin; add the spec (served on 127.0.0.1 by this script) as a source; scan it; open a
// pending tool; approve it with a policy; watch its build succeed and the tool appear in catalog search;
// reject another tool and find it gone from the queue with its reason in the audit log; sign in as viewer:
// no approve button, and the API refuses an approval. A screenshot of each screen lands in --screenshots.
// Prints one JSON line last: {"passed":true|false,"steps":[...],"screenshots":[...]}; exits 1 on failure.

import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { launchOptions, readCredentials, seriousA11yViolations } from './common.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');

function parseArgs(argv) {
  const opts = {
    baseUrl: 'http://127.0.0.1:8080',
    spec: join(here, 'fixtures', 'bikewise.openapi.yaml'),
    credentials: join(repo, '.state', 'credentials.env'),
    screenshots: join(repo, 'docs', 'screenshots'),
    chromium: '/usr/bin/chromium',
    timeout: 180,
    headed: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => { if (i + 1 >= argv.length) throw new Error(`${a} needs a value`); return argv[++i]; };
    switch (a) {
      case '--base-url': opts.baseUrl = next().replace(/\/+$/, ''); break;
      case '--spec': opts.spec = resolve(next()); break;
      case '--credentials': opts.credentials = resolve(next()); break;
      case '--screenshots': opts.screenshots = resolve(next()); break;
      case '--chromium': opts.chromium = next(); break;
      case '--timeout': opts.timeout = Number(next()); break;
      case '--headed': opts.headed = true; break;
      default: throw new Error(`unknown option ${a} (see the header of ${basename(fileURLToPath(import.meta.url))})`);
    }
  }
  return opts;
}

/** Serves the one spec file on 127.0.0.1 (a real HTTP fetch for the librarian's scanner). */
function serveSpec(file) {
  const body = readFileSync(file);
  const type = /\.ya?ml$/.test(file) ? 'application/yaml' : 'application/json';
  const server = createServer((req, res) => {
    if (req.url === `/${basename(file)}`) {
      res.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length });
      res.end(body);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, url: `http://127.0.0.1:${server.address().port}/${basename(file)}` })));
}

const steps = [];
const shots = [];
let current = null;

async function step(name, fn) {
  current = name;
  const started = Date.now();
  process.stdout.write(`• ${name} … `);
  await fn();
  const ms = Date.now() - started;
  steps.push({ step: name, ms });
  process.stdout.write(`ok (${ms} ms)\n`);
}

/** Waits for a dialog to close after submit; if it shows an error instead, fails with that error's text. */
async function dialogClosesOrFail(dialog) {
  const error = dialog.locator('.field-error[role=alert]');
  const outcome = await Promise.race([
    dialog.waitFor({ state: 'detached' }).then(() => null),
    error.first().waitFor().then(() => 'error'),
  ]);
  if (outcome === 'error') throw new Error(`the dialog refused: ${(await error.allInnerTexts()).join(' / ')}`);
}

/** Waits until a list shows the answer to its current filters (the UI keeps old rows while reloading). */
/** Filters the review queue by a source through its typeahead (the librarian searches all sources). */
async function pickSource(page, name) {
  await page.getByRole('combobox', { name: 'Source', exact: true }).fill(name);
  await page.getByRole('option', { name, exact: true }).first().click();
  await page.waitForFunction(() => /[?&]source=/.test(location.hash));
}

async function settled(page) {
  await page.waitForTimeout(300);
  await page.locator('.reloading').waitFor({ state: 'detached' });
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const creds = readCredentials(opts.credentials);
  check(existsSync(opts.chromium), `${opts.chromium} is missing: apt-get install -y chromium`);
  check(existsSync(opts.spec), `no spec at ${opts.spec}`);
  mkdirSync(opts.screenshots, { recursive: true });
  const wait = opts.timeout * 1000;
  const { server, url: specUrl } = await serveSpec(opts.spec);
  const sourceName = `e2e ${basename(opts.spec).split('__')[0]} ${new Date().toISOString().slice(11, 19)}`;

  const browser = await chromium.launch(launchOptions(opts.chromium, opts.headed));
  // Dialogs are fixed overlays: they are shot as the viewport shows them, screens as whole pages. Every
  // screen shot is also checked with axe-core; serious or critical violations fail the run at the end.
  const a11y = [];
  const shot = async (page, name) => {
    const path = join(opts.screenshots, `${name}.png`);
    await page.screenshot({ path, fullPage: !/dialog/.test(name) });
    shots.push(path);
    a11y.push(...await seriousA11yViolations(page, name));
  };
  let page;
  try {
    const admin = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    page = await admin.newPage();
    page.setDefaultTimeout(20_000);

    await step('admin signs in', async () => {
      await page.goto(`${opts.baseUrl}/`);
      await page.getByLabel('User name').waitFor();
      await shot(page, 'login');
      await page.getByLabel('Password').fill('wrong-password');
      await page.getByLabel('User name').fill(creds.admin.user);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('Wrong user name or password.').waitFor();
      await page.getByLabel('Password').fill(creds.admin.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByTestId('who').filter({ hasText: creds.admin.user }).waitFor();
    });

    await step('admin adds the OpenAPI source (validation first)', async () => {
      await page.goto(`${opts.baseUrl}/#/sources`);
      await page.getByRole('heading', { name: 'Sources' }).waitFor();
      await page.getByRole('button', { name: 'Add source' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('URL').fill('ftp://not-a-spec');
      await dialog.getByRole('button', { name: 'Add source' }).click();
      await dialog.getByText('Give the source a name').waitFor();
      await dialog.getByText('An http:// or https:// URL of the document').waitFor();
      await dialog.getByLabel('Name').fill(sourceName);
      await dialog.getByLabel('URL').fill(specUrl);
      await dialog.getByLabel('Scan every (minutes)').fill('1440');
      await shot(page, 'source-dialog');
      await dialog.getByRole('button', { name: 'Add source' }).click();
      await dialogClosesOrFail(dialog);
      await page.getByTestId(`source-${sourceName}`).waitFor();
    });

    await step('admin scans it and sees what was found', async () => {
      const row = page.getByTestId(`source-${sourceName}`);
      await row.getByRole('button', { name: 'Scan now' }).click();
      // Progress shows while the librarian scans; the row then shows the counts.
      await row.getByRole('button', { name: 'Scan now' }).and(page.locator(':enabled')).waitFor({ timeout: wait });
      await page.waitForFunction((name) => {
        const r = document.querySelector(`[data-testid="source-${CSS.escape(name)}"]`);
        const cells = r ? [...r.querySelectorAll('td.num')].map((c) => c.textContent) : [];
        return cells.length && /^[1-9]\d*$/.test(cells[0] ?? '');
      }, sourceName, { timeout: wait, polling: 1000 }).catch(async () => {
        await page.reload();
        const text = await page.getByTestId(`source-${sourceName}`).innerText();
        throw new Error(`the scan found no tools: ${text.replace(/\s+/g, ' ')}`);
      });
      await shot(page, 'sources');
    });

    let first, second, firstDescription, reviewUrl;
    await step('the review queue lists the new tools of the source', async () => {
      await page.goto(`${opts.baseUrl}/#/review`);
      await pickSource(page, sourceName);
      await settled(page);
      await page.locator('tbody tr').first().waitFor({ timeout: wait });
      const verbs = await page.locator('tbody tr td a.mono').allInnerTexts();
      check(verbs.length >= 2, `expected at least two pending tools from ${basename(opts.spec)}, found ${verbs.length}`);
      // On a platform where an earlier run already approved a tool of this document (same tool id from
      // another source), approve one that is not built yet, so the build this run waits for really happens.
      const taken = await page.evaluate(async () => {
        const r = await fetch('/api/librarian/tools/pending?status=APPROVED,ACTIVE&size=200', { credentials: 'same-origin' });
        return r.ok ? (await r.json()).items.map((c) => c.toolId) : [];
      });
      const ours = await page.evaluate(async (name) => {
        const sources = await (await fetch('/api/librarian/tools/sources', { credentials: 'same-origin' })).json();
        const source = sources.find((x) => x.name === name);
        const r = await fetch(`/api/librarian/tools/pending?source=${source.id}&status=PENDING&size=200`, { credentials: 'same-origin' });
        return (await r.json()).items.map((c) => ({ verb: c.verb, toolId: c.toolId }));
      }, sourceName);
      const fresh = ours.filter((c) => !taken.includes(c.toolId)).map((c) => c.verb);
      check(fresh.length > 0, `every tool of ${basename(opts.spec)} is already approved on this platform: pass --spec with another document`);
      first = fresh[0];
      second = verbs.find((v) => v !== first);
      check(await page.locator('tbody tr').first().getByText('new').count() > 0, 'a first scan marks tools as new');
      await shot(page, 'review-queue');
    });

    await step(`admin opens ${first} and reviews it`, async () => {
      await page.getByRole('link', { name: first, exact: true }).click();
      await page.getByRole('heading', { name: first }).waitFor();
      await page.getByRole('heading', { name: 'Parameters' }).waitFor();
      await page.getByRole('heading', { name: 'What it can reach' }).waitFor();
      // What the tool does, in the source's words: the natural query to find it in the catalog later.
      firstDescription = (await page.locator('p.description').innerText()).trim().slice(0, 300);
      await shot(page, 'tool-review');
    });

    await step('the approve dialog works from the keyboard: focus inside, Tab trapped, Escape returns focus', async () => {
      const opener = page.getByRole('button', { name: 'Approve…' });
      await opener.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      const inDialog = () => page.evaluate(() => Boolean(document.activeElement?.closest('[role=dialog]')));
      check(await inDialog(), 'focus moves into the approve dialog when it opens');
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press(i % 7 === 6 ? 'Shift+Tab' : 'Tab');
        check(await inDialog(), `focus left the dialog after ${i + 1} Tab presses`);
      }
      // type into the focused field, then Escape: a filled form asks first (accepted here)
      await dialog.getByLabel('Calls per second').focus();
      await page.keyboard.type('2');
      page.once('dialog', (d) => d.accept());
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      check(await page.evaluate(() => document.activeElement?.textContent) === 'Approve…', 'focus returns to Approve… after Escape');
      // the policy typed so far is still there when the dialog opens again
      await page.keyboard.press('Enter');
      await page.getByRole('dialog').getByLabel('Calls per second').waitFor();
      check(await page.getByRole('dialog').getByLabel('Calls per second').inputValue() === '2', 'the typed policy survives closing the dialog');
      await page.getByRole('dialog').getByLabel('Calls per second').fill('');
    });

    await step('admin approves it with a validated policy', async () => {
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Calls per minute').fill('sixty');
      await dialog.getByLabel('Soft limit').fill('20');
      await dialog.getByLabel('Hard limit').fill('10');
      await dialog.getByRole('button', { name: 'Approve with this policy' }).click();
      await dialog.getByText('Calls per minute must be a number').waitFor();
      await dialog.getByText('The soft limit must not exceed the hard limit').waitFor();
      await dialog.getByLabel('Calls per minute').fill('60');
      await dialog.getByLabel('Burst').fill('5');
      await dialog.getByLabel('Calls per day').fill('1000');
      await dialog.getByLabel('Currency').fill('EUR');
      await dialog.getByLabel('Cost per call').fill('0.001');
      await dialog.getByLabel('Soft limit').fill('5');
      await dialog.getByLabel('Hard limit').fill('10');
      // Secret rows the tool's scheme suggests get a value; the value field never shows it again.
      const values = dialog.getByLabel('Value');
      for (let i = 0; i < await values.count(); i++) await values.nth(i).fill(`e2e-secret-${i}`);
      await shot(page, 'approve-dialog');
      // submitted from the keyboard: Enter in a field sends the form
      await dialog.getByLabel('Hard limit').press('Enter');
      await dialogClosesOrFail(dialog);
    });

    await step('the engineer builds and verifies it (report shown on the review)', async () => {
      const deadline = Date.now() + wait;
      for (;;) {
        const passed = await page.getByText('verification passed').count();
        const failed = await page.getByText('verification failed').count();
        if (passed) break;
        if (failed) throw new Error(`the build failed: ${(await page.locator('main').innerText()).slice(-800)}`);
        if (Date.now() > deadline) throw new Error('no verification report within the timeout');
        await page.waitForTimeout(2000);
        await page.reload();
        await page.getByRole('heading', { name: first }).waitFor();
      }
      await shot(page, 'tool-review-built');
      reviewUrl = page.url();
      // the review links to the tool's whole history: its approval is on it
      await page.getByTestId('related').getByRole('link', { name: 'history' }).click();
      await page.getByRole('heading', { name: 'What happened' }).waitFor();
      await page.getByTestId('history-events').getByText('APPROVED').first().waitFor();
      await shot(page, 'tool-history');
    });

    await step('admin changes the policy of the active tool (validated, confirmed, from the keyboard) and it is audited', async () => {
      await page.goto(reviewUrl);
      await page.getByRole('heading', { name: 'Policy in force' }).waitFor();
      const opener = page.getByRole('button', { name: 'Change policy…' });
      await opener.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: `Change the policy of ${first}` });
      await dialog.waitFor();
      check(await dialog.getByLabel('Calls per day').inputValue() === '1000', 'the dialog starts from the policy in force');
      await dialog.getByLabel('Calls per day').fill('500');
      await dialog.getByLabel('Calls per month').fill('100');
      await dialog.getByRole('button', { name: 'Change the policy' }).click();
      await dialog.getByText('The monthly quota cannot be smaller than the daily quota').waitFor();
      await dialog.getByText('Confirm the change, or cancel.').waitFor();
      await dialog.getByLabel('Calls per month').fill('');
      await dialog.getByLabel(/Yes, put this policy in force/).focus();
      await page.keyboard.press('Space');
      await shot(page, 'policy-dialog');
      await dialog.getByLabel('Calls per day').press('Enter');
      await dialogClosesOrFail(dialog);
      await page.getByText(`Changed the policy of ${first}`).waitFor();
      await page.getByRole('cell', { name: '500/day' }).waitFor();
      await page.goto(`${opts.baseUrl}/#/audit?action=POLICY_CHANGED`);
      await page.getByRole('cell', { name: new RegExp(`Policy of .* changed \\(approval version`) }).first().waitFor();
      check(await page.getByText('e2e-secret-0').count() === 0, 'no secret value in the audit log');
    });

    await step('the approved tool appears in catalog search', async () => {
      await page.goto(`${opts.baseUrl}/#/catalog`);
      const description = firstDescription || first.replace(/_/g, ' ').toLowerCase();
      const deadline = Date.now() + wait;
      for (;;) {
        await page.getByLabel('search the catalog').fill(description);
        await page.getByRole('button', { name: 'Search' }).click();
        await page.waitForTimeout(500);
        const table = page.getByTestId('search-results');
        if (await table.count() && await table.getByRole('link', { name: first, exact: true }).count()) break;
        if (Date.now() > deadline) throw new Error(`${first} not found in search for "${description}"`);
        await page.waitForTimeout(2000);
      }
      await shot(page, 'catalog-search');
      await page.getByTestId('search-results').getByRole('link', { name: first, exact: true }).click();
      await page.getByRole('heading', { name: 'Parameters' }).waitFor();
      await shot(page, 'catalog-tool');
    });

    await step(`admin rejects ${second} with a reason`, async () => {
      await page.goto(`${opts.baseUrl}/#/review`);
      await pickSource(page, sourceName);
      await page.getByRole('link', { name: second, exact: true }).click();
      await page.getByRole('button', { name: 'Reject…' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await dialog.getByText(/Say why the tool is rejected/).waitFor();
      await dialog.getByLabel('Reason (required)').fill(`e2e: ${second} duplicates ${first}`);
      await shot(page, 'reject-dialog');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await page.getByRole('heading', { name: 'Review queue' }).waitFor();
      await pickSource(page, sourceName);
      await settled(page);
      check(await page.getByRole('link', { name: second, exact: true }).count() === 0, `${second} is still in the pending queue`);
    });

    await step('the audit log holds the rejection and its reason', async () => {
      await page.goto(`${opts.baseUrl}/#/audit`);
      const row = page.getByTestId('audit-table').getByRole('row')
        .filter({ hasText: `e2e: ${second} duplicates ${first}` }).filter({ hasText: 'REJECTED' }).first();
      await row.waitFor();
      check((await row.innerText()).includes(creds.admin.user), 'the audit entry does not name the admin who rejected');
      await shot(page, 'audit-log');
    });

    await step('gaps, builds and an unknown route', async () => {
      await page.goto(`${opts.baseUrl}/#/gaps`);
      await page.getByRole('heading', { name: 'Capability gaps' }).waitFor();
      await page.locator('tbody tr, .state-empty').first().waitFor();
      await shot(page, 'gaps');
      await page.goto(`${opts.baseUrl}/#/builds`);
      await page.getByRole('heading', { name: 'Builds' }).waitFor();
      await page.getByTestId('builds-table').getByRole('link', { name: /./ }).first().waitFor();
      await shot(page, 'builds');
      await page.goto(`${opts.baseUrl}/#/nonexistent`);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await shot(page, 'not-found');
    });

    await step('health, usage and notifications screens', async () => {
      await page.goto(`${opts.baseUrl}/#/health`);
      await page.getByRole('heading', { name: 'Health and usage' }).waitFor();
      await page.locator('tbody tr, .state-empty').first().waitFor();
      await shot(page, 'health');
      const link = page.getByRole('link', { name: first, exact: true });
      // the capabilities manager registers the plugin from plugin-built; the list follows it every 10 s
      await link.waitFor({ timeout: 30_000 });
      await link.click();
      await page.getByRole('heading', { name: 'Health history' }).waitFor();
      await shot(page, 'health-plugin');
    });

    await step('disable (with a reason), enable and a threshold change land in the librarian\'s audit log with who did it', async () => {
      const toolId = decodeURIComponent(new URL(page.url()).hash.replace(/^#\/health\//, ''));
      const reason = `e2e ${new Date().toISOString().slice(11, 19)}: its provider answers 500`;
      const disable = async () => {
        await page.getByRole('button', { name: 'Disable…' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel('Reason (required)').fill(reason);
        await dialog.getByRole('button', { name: 'Disable', exact: true }).click();
        await page.getByText('Disabled: the tool is out of service').waitFor();
      };
      const enable = async () => {
        await page.getByRole('button', { name: 'Enable', exact: true }).click();
        await page.getByText('Enabled: the tool is back in service.').waitFor();
      };
      // the health worker may have disabled it already (this machine cannot reach the API's host)
      if (await page.getByRole('button', { name: 'Enable', exact: true }).count()) await enable();
      await disable();
      await enable();
      // an admin's health-threshold change is audited too (the capabilities manager announces it on notifications)
      const failures = page.getByLabel('Failed probes before disabling');
      const before = await failures.inputValue();
      const wanted = String(Number(before) + 4);
      await failures.fill(wanted);
      await page.getByRole('button', { name: 'Save thresholds' }).click();
      await page.getByText('Health thresholds saved').waitFor();
      await page.goto(`${opts.baseUrl}/#/audit?subjectId=${encodeURIComponent(toolId)}&action=HEALTH_THRESHOLDS_CHANGED`);
      const tuned = page.getByTestId('audit-table').getByRole('row').filter({ hasText: `failuresToDisable ${before} → ${wanted}` }).first();
      await tuned.waitFor({ timeout: 30_000 }); // notifications travel through Kafka
      check((await tuned.getByRole('cell').nth(1).innerText()).trim() === creds.admin.user,
        `the threshold change's Who is not the admin ${creds.admin.user}: ${await tuned.innerText()}`);
      await page.goto(`${opts.baseUrl}/#/audit?subjectId=${encodeURIComponent(toolId)}&action=CATALOG_STATUS_CHANGED`);
      const rows = page.getByTestId('audit-table').getByRole('row');
      const disabled = rows.filter({ hasText: reason }).first();
      await disabled.waitFor({ timeout: 30_000 }); // plugin-status travels through Kafka
      // the Who column names the admin once (the capabilities manager records "admin <name>")
      const who = (await disabled.getByRole('cell').nth(1).innerText()).trim();
      check(who === creds.admin.user, `the disable entry's Who is "${who}", not the admin ${creds.admin.user}: ${await disabled.innerText()}`);
      await rows.filter({ hasText: 'is now active' }).filter({ has: page.getByRole('cell', { name: creds.admin.user, exact: true }) }).first().waitFor({ timeout: 30_000 });
      await shot(page, 'audit-status-changes');
      await page.goto(`${opts.baseUrl}/#/notifications`);
      await page.getByRole('heading', { name: 'Notifications' }).waitFor();
      await page.locator('.notification, .state-empty, .state-error').first().waitFor();
      await shot(page, 'notifications');
    });

    await step('a viewer sees no approve button and the API refuses an approval', async () => {
      const viewerContext = await browser.newContext({ viewport: { width: 1360, height: 900 } });
      const v = await viewerContext.newPage();
      v.setDefaultTimeout(20_000);
      await v.goto(`${opts.baseUrl}/`);
      await v.getByLabel('User name').fill(creds.viewer.user);
      await v.getByLabel('Password').fill(creds.viewer.password);
      await v.getByRole('button', { name: 'Sign in' }).click();
      await v.getByTestId('who').filter({ hasText: 'viewer' }).waitFor();
      await v.goto(`${opts.baseUrl}/#/review`);
      await v.getByRole('heading', { name: 'Review queue' }).waitFor();
      // A tool still pending is the real test (an admin would see Approve there); a document with only two
      // operations has none left, so the approved one is used instead.
      await pickSource(v, sourceName);
      await settled(v);
      await v.locator('tbody tr, .state-empty').first().waitFor();
      if (await v.locator('tbody tr').count() === 0) {
        await v.getByLabel('Status', { exact: true }).selectOption('ACTIVE');
        await settled(v);
        await v.locator('tbody tr').first().waitFor();
      }
      check(await v.getByRole('button', { name: /Approve/ }).count() === 0, 'a viewer sees an approve button in the queue');
      check(await v.getByRole('checkbox').count() === 0, 'a viewer sees selection boxes');
      await shot(v, 'viewer-review-queue');
      const href = await v.locator('tbody tr td a.mono').first().getAttribute('href');
      await v.goto(`${opts.baseUrl}/${href}`);
      await v.getByRole('heading', { name: 'Parameters' }).waitFor();
      check(await v.getByRole('button', { name: /Approve|Reject/ }).count() === 0, 'a viewer sees approve/reject on a tool');
      const id = decodeURIComponent(href.replace(/^#\/review\//, ''));
      const status = await v.evaluate(async (toolId) => (await fetch(`/api/librarian/tools/pending/${encodeURIComponent(toolId)}/approve`, {
        method: 'POST', credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'e2e' }, body: JSON.stringify({ policy: {} }),
      })).status, id);
      check(status === 403, `the API answered ${status} to a viewer's approval, expected 403`);
      await viewerContext.close();
    });

    await step('no serious accessibility violations on any screen (axe-core)', async () => {
      check(a11y.length === 0, `axe-core found serious or critical violations:\n  ${a11y.join('\n  ')}`);
    });

    console.log(JSON.stringify({ passed: true, steps, screenshots: shots.map((s) => basename(s)) }));
  } catch (error) {
    process.stdout.write('FAILED\n');
    console.error(`step "${current}" failed: ${error.message}`);
    // The failure's screenshot stays out of docs/: airlock-ui/e2e/.runtime is ignored by git.
    const failureShot = join(here, '.runtime', 'e2e-failure.png');
    mkdirSync(dirname(failureShot), { recursive: true });
    if (page) await page.screenshot({ path: failureShot, fullPage: true }).then(() => console.error(`screenshot of the failure: ${failureShot}`), () => {});
    console.log(JSON.stringify({ passed: false, failedStep: current, error: error.message, steps, screenshots: shots.map((s) => basename(s)) }));
    process.exitCode = 1;
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((e) => { console.error(e.message); process.exitCode = 1; });
