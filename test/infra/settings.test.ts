import { afterEach, describe, expect, it, vi } from 'vitest';
import { readDeploySettings } from '../../infra/settings.js';

const read = (context: Record<string, unknown>) => readDeploySettings((key) => context[key]);

afterEach(() => vi.unstubAllEnvs());

describe('deploy settings', () => {
  it('default to the prod stage and nothing else', () => {
    expect(read({})).toEqual({ stage: 'prod' });
  });

  it('come from context only, never from the shell', () => {
    for (const name of ['PUBLIC_BASE_URL', 'DASHBOARD_URL', 'MAIL_FROM', 'CDK_DEPLOY_ACCOUNT', 'CDK_DEPLOY_REGION', 'EDGE_RATE_LIMIT', 'STAGE']) {
      vi.stubEnv(name, name === 'EDGE_RATE_LIMIT' ? '100' : 'http://localhost:3000');
    }
    expect(read({})).toEqual({ stage: 'prod' });
  });

  it('read every setting from context', () => {
    const settings = read({
      stage: 'staging',
      account: '123456789012',
      region: 'eu-west-1',
      edgeRateLimit: '2000',
      publicBaseUrl: 'https://licenses.example.com',
      dashboardUrl: 'https://app.example.com',
      mailFrom: 'licenses@example.com',
      alarmEmail: 'ops@example.com',
      domainName: 'api.example.com',
      certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc',
    });
    expect(settings).toEqual({
      stage: 'staging',
      account: '123456789012',
      region: 'eu-west-1',
      edgeRateLimit: 2000,
      publicBaseUrl: 'https://licenses.example.com',
      dashboardUrl: 'https://app.example.com',
      mailFrom: 'licenses@example.com',
      alarmEmail: 'ops@example.com',
      customDomain: { domainName: 'api.example.com', certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc' },
    });
  });

  it('refuse a stage that cannot name the stack, topic, alarms and dashboard', () => {
    for (const stage of ['Prod', 'a b', 'x'.repeat(33), '-dev', 'dev_1']) expect(() => read({ stage })).toThrow(/stage must be/);
    expect(read({ stage: 'dev-2' }).stage).toBe('dev-2');
  });

  it('check URLs at synthesis, and let ssm: references through where the value may come from SSM', () => {
    expect(() => read({ publicBaseUrl: 'licenses.example.com' })).toThrow(/publicBaseUrl must be an absolute http\(s\) URL/);
    expect(() => read({ dashboardUrl: 'ssm:/licensing/dashboard' })).toThrow(/dashboardUrl must be an absolute http\(s\) URL/);
    expect(read({ publicBaseUrl: 'ssm:/licensing/base-url', mailFrom: 'ssm:/licensing/mail-from' })).toMatchObject({
      publicBaseUrl: 'ssm:/licensing/base-url',
      mailFrom: 'ssm:/licensing/mail-from',
    });
  });

  it('refuse an alarm address that is not one', () => {
    expect(() => read({ alarmEmail: 'ops' })).toThrow(/alarmEmail must be an e-mail address/);
    expect(read({ alarmEmail: 'ssm:/licensing/alarm-email' }).alarmEmail).toBe('ssm:/licensing/alarm-email');
  });

  it('demand an account and region with the edge firewall, and a whole number for its limit', () => {
    expect(() => read({ edgeRateLimit: '1000' })).toThrow(/explicit account and region/);
    expect(() => read({ edgeRateLimit: '1e3', account: '1', region: 'eu-west-1' })).toThrow(/whole number/);
  });

  it('take a custom domain with a certificate or with the hosted zone that validates one', () => {
    expect(read({ domainName: 'api.example.com', hostedZoneId: 'Z1', hostedZoneName: 'example.com' }).customDomain).toEqual({
      domainName: 'api.example.com',
      hostedZone: { hostedZoneId: 'Z1', zoneName: 'example.com' },
    });
    expect(() => read({ domainName: 'api.example.com' })).toThrow(/needs certificateArn .* or hostedZoneId and hostedZoneName/);
    expect(() => read({ domainName: 'api.example.com', hostedZoneId: 'Z1' })).toThrow(/go together/);
    expect(() => read({ certificateArn: 'arn:aws:acm:eu-west-1:1:certificate/x' })).toThrow(/need domainName/);
  });
});
