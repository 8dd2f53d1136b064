import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { ACCESS_LOG_NUMBER_FIELDS, ACCESS_LOG_TEXT_FIELDS } from '../../infra/constructs/api-access-logs.js';
import { LicensingStack } from '../../infra/stack.js';
import { cdkApp } from './support/app.js';

const outdir = mkdtempSync(join(tmpdir(), 'access-logs-test-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));
const template = Template.fromStack(new LicensingStack(cdkApp(outdir), 'LicensingService', { bundle: false }));
const [stage] = Object.values(template.findResources('AWS::ApiGatewayV2::Stage')) as { Properties: { AccessLogSettings: { Format: string } } }[];
const format = stage!.Properties.AccessLogSettings.Format;

/**
 * A line as API Gateway writes it: each `$context` variable replaced by its value, quotes and backslashes escaped as
 * they are in values it logs (a user agent of `"x"` is logged `\"x\"`), and a bare `-` for a variable without a value.
 */
function render(values: Record<string, string>): string {
  return format.replace(/\$context(?:\.[A-Za-z]+)+/g, (variable) => {
    const value = values[variable];
    return value === undefined ? '-' : value.replace(/["\\]/g, (c) => `\\${c}`);
  });
}

const request = {
  '$context.requestId': 'Abc=',
  '$context.identity.sourceIp': '203.0.113.9',
  '$context.requestTime': '10/Jul/2026:18:14:22 +0000',
  '$context.httpMethod': 'POST',
  '$context.path': '/v1/licenses/validate',
  '$context.protocol': 'HTTP/1.1',
  '$context.identity.userAgent': 'WordPress/6.7; "quoted" \\ agent',
  '$context.status': '200',
  '$context.responseLength': '215',
  '$context.responseLatency': '38',
};

describe('API access log format', () => {
  it('is a JSON object with numbers as numbers for a request a function answered', () => {
    const line = JSON.parse(render({ ...request, '$context.routeKey': 'ANY /v1/{proxy+}', '$context.integrationStatus': '200', '$context.integrationLatency': '35' }));
    expect(line).toMatchObject({ status: 200, responseLength: 215, latency: 38, routeKey: 'ANY /v1/{proxy+}', integrationStatus: '200', error: '-' });
    expect(line.userAgent).toBe(request['$context.identity.userAgent']);
  });

  it('stays JSON for API Gateway\u2019s own answers, with no function and an error message that holds quotes', () => {
    const message = 'Invalid value "x" in \\ path';
    const line = JSON.parse(render({ ...request, '$context.status': '413', '$context.error.message': message }));
    expect(line).toMatchObject({ status: 413, error: message, integrationStatus: '-', integrationLatency: '-', integrationError: '-', routeKey: '-' });
  });

  it('puts bare only the numbers every answer has, and every other variable in quotes', () => {
    for (const [name, variable] of Object.entries(ACCESS_LOG_NUMBER_FIELDS)) expect(format).toContain(`"${name}":${variable}`);
    for (const [name, variable] of Object.entries(ACCESS_LOG_TEXT_FIELDS)) expect(format).toContain(`"${name}":"${variable}"`);
    const variables = format.match(/\$context(?:\.[A-Za-z]+)+/g) ?? [];
    expect(variables.sort()).toEqual([...Object.values(ACCESS_LOG_TEXT_FIELDS), ...Object.values(ACCESS_LOG_NUMBER_FIELDS)].sort());
    expect(format).not.toContain('messageString');
  });
});
