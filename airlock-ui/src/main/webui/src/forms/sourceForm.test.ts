import { describe, expect, it } from 'vitest';
import { emptySourceForm, validateSource } from './sourceForm';

describe('validateSource', () => {
  it('accepts an OpenAPI URL and sends minutes as a number', () => {
    const { errors, value } = validateSource({ ...emptySourceForm(), name: ' Petstore ', url: 'http://127.0.0.1:9000/petstore.yaml', intervalMinutes: '30' });
    expect(errors).toEqual({});
    expect(value).toEqual({ name: 'Petstore', type: 'openapi', url: 'http://127.0.0.1:9000/petstore.yaml', intervalSeconds: 1800, suspendOnChange: false });
  });

  it('names every missing or wrong field', () => {
    const { errors, value } = validateSource({ ...emptySourceForm(), url: 'ftp://x/spec.json', intervalMinutes: '0' });
    expect(value).toBeUndefined();
    expect(errors.name).toBe('Give the source a name');
    expect(errors.url).toMatch(/http:\/\/ or https:\/\//);
    expect(errors.intervalMinutes).toMatch(/Between 1 minute/);
    expect(validateSource({ ...emptySourceForm(), name: 'x', url: 'not a url' }).errors.url).toBeDefined();
    expect(validateSource({ ...emptySourceForm(), name: 'x', url: 'https://h/x', intervalMinutes: '1.5' }).errors.intervalMinutes).toBe('Whole minutes between scans');
  });

  it('git sources need a branch and may use file URLs', () => {
    const ok = validateSource({ ...emptySourceForm(), type: 'git', name: 'g', url: 'file:///srv/tools.git', branch: 'main', path: 'tools' });
    expect(ok.value).toMatchObject({ type: 'git', branch: 'main', path: 'tools' });
    expect(validateSource({ ...emptySourceForm(), type: 'git', name: 'g', url: 'https://h/r.git', branch: ' ' }).errors.branch).toBeDefined();
  });
});
