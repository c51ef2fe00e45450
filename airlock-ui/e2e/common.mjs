// What the browser tests share: the UI passwords, how Debian's chromium is started, and signing in.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** admin and viewer credentials from the environment or a KEY=VALUE file (default .state/credentials.env). */
export function readCredentials(file = join(repo, '.state', 'credentials.env')) {
  const values = {};
  if (existsSync(file)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const m = line.match(/^([A-Z_]+)=(.*)$/);
      if (m) values[m[1]] = m[2];
    }
  }
  const admin = { user: process.env.TOOLSMITH_UI_ADMIN_USER ?? 'admin', password: process.env.TOOLSMITH_UI_ADMIN_PASSWORD ?? values.UI_ADMIN_PASSWORD };
  const viewer = { user: process.env.TOOLSMITH_UI_VIEWER_USER ?? 'viewer', password: process.env.TOOLSMITH_UI_VIEWER_PASSWORD ?? values.UI_VIEWER_PASSWORD };
  if (!admin.password || !viewer.password) {
    throw new Error(`no UI passwords: set TOOLSMITH_UI_ADMIN_PASSWORD and TOOLSMITH_UI_VIEWER_PASSWORD or pass --credentials (looked in ${file})`);
  }
  return { admin, viewer };
}

/** Debian's chromium, headless, with nothing that reaches out to the network on its own. */
export function launchOptions(executablePath, headed = false) {
  if (!existsSync(executablePath)) throw new Error(`${executablePath} is missing: apt-get install -y chromium`);
  return {
    executablePath,
    headless: !headed,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic'],
  };
}

/** Signs in with the password form and waits for the signed-in user in the top bar. */
export async function signIn(page, baseUrl, who) {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('User name').fill(who.user);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('who').filter({ hasText: who.user }).waitFor();
}

const AXE = join(dirname(fileURLToPath(import.meta.url)), 'node_modules', 'axe-core', 'axe.min.js');

/**
 * Runs axe-core (from npm, injected through the DevTools protocol, which the page's CSP does not govern)
 * on the page as it is, and answers its serious and critical violations as "screen: rule (n×): help".
 */
export async function seriousA11yViolations(page, screen) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) {
    await page.evaluate(readFileSync(AXE, 'utf8') + '\n;true');
  }
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, help: v.help, count: v.nodes.length, first: v.nodes[0]?.target?.join(' ') }));
  });
  return violations.map((v) => `${screen}: ${v.id} (${v.count}×, e.g. ${v.first}): ${v.help}`);
}
