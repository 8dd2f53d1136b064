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
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc',
      priceClass: 'PriceClass_200',
    });
    expect(settings).toEqual({
      stage: 'staging',
      account: '123456789012',
      region: 'eu-west-1',
      edgeRateLimit: 2000,
      priceClass: 'PriceClass_200',
      publicBaseUrl: 'https://licenses.example.com',
      dashboardUrl: 'https://app.example.com',
      mailFrom: 'licenses@example.com',
      alarmEmail: 'ops@example.com',
      customDomain: { domainName: 'api.example.com', certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc' },
    });
  });

  it('take who may register, open or by invitation, and nothing else', () => {
    expect(read({ registration: 'open' })).toEqual({ stage: 'prod', registration: 'open' });
    expect(read({ registration: 'invite' })).toEqual({ stage: 'prod', registration: 'invite' });
    expect(() => read({ registration: 'closed' })).toThrow(/registration must be one of open, invite, got "closed"/);
  });

  it('leave CloudFront out with dashboard=false, which the edge firewall cannot do without', () => {
    expect(read({ dashboard: 'false' })).toEqual({ stage: 'prod', dashboard: false });
    expect(read({ dashboard: 'true' })).toEqual({ stage: 'prod' });
    expect(() => read({ dashboard: 'no' })).toThrow(/dashboard must be true or false/);
    expect(() => read({ dashboard: 'false', edgeRateLimit: '1000', account: '123456789012', region: 'eu-west-1', mailFrom: 'a@example.com' })).toThrow(/dashboard=false leaves out/);
    expect(() => read({ priceClass: '100' })).toThrow(/priceClass must be one of PriceClass_100, PriceClass_200, PriceClass_All/);
  });

  it('leave an unset sender to the deployment to ask for (test/infra/stack.test.ts), unless told it is a trial', () => {
    // Synthesis works without one (tests, `cdk synth` in CI); the template then asks for it, with or without an account.
    for (const target of [{}, { account: '123456789012' }, { region: 'eu-west-1' }]) {
      expect(read(target).mailFrom).toBeUndefined();
      expect(read(target)).not.toHaveProperty('allowDefaultMailFrom');
      expect(read({ ...target, allowDefaultMailFrom: 'true' })).toMatchObject({ allowDefaultMailFrom: true });
    }
    expect(read({ mailFrom: 'ssm:/licensing/mail-from', allowDefaultMailFrom: 'true' })).not.toHaveProperty('allowDefaultMailFrom');
    expect(read({ account: '123456789012', region: 'eu-west-1', mailFrom: 'ssm:/licensing/mail-from' }).mailFrom).toBe('ssm:/licensing/mail-from');
  });

  it('refuse a sender that is not a bare address at synthesis, rather than at the mail sender’s cold start', () => {
    expect(() => read({ mailFrom: 'Vendor <licenses@example.com>' })).toThrow(/mailFrom must be an e-mail address/);
  });

  it('refuse an ssm: reference that can name no SSM parameter', () => {
    for (const [value, reason] of [
      ['ssm:licensing/prod/mail-from', /a path starts with \//],
      ['ssm:/licensing/mail from', /letters, digits/],
      ['ssm:', /letters, digits/],
      ['ssm:/aws/reference/x', /no name starts with aws or ssm/],
      ['ssm:ssm-param', /no name starts with aws or ssm/],
    ] as const) {
      expect(() => read({ mailFrom: value }), value).toThrow(reason);
    }
    expect(() => read({ publicBaseUrl: 'ssm:bad name' })).toThrow(/publicBaseUrl: ssm:bad name is not an SSM parameter name/);
    expect(read({ mailFrom: 'ssm:/licensing/prod/mail-from', alarmEmail: 'ssm:alarm-email' })).toMatchObject({ alarmEmail: 'ssm:alarm-email' });
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
    expect(() => read({ edgeRateLimit: '1e3', account: '1', region: 'eu-west-1', mailFrom: 'a@example.com' })).toThrow(/whole number/);
  });

  it('take a custom domain with a certificate or with the hosted zone that validates one', () => {
    const zone = { domainName: 'api.example.com', hostedZoneId: 'Z1', hostedZoneName: 'example.com' };
    const account = { account: '123456789012', mailFrom: 'a@example.com' };
    expect(read({ ...zone, ...account, region: 'eu-west-1' }).customDomain).toEqual({
      domainName: 'api.example.com',
      hostedZone: { hostedZoneId: 'Z1', zoneName: 'example.com' },
    });
    expect(read({ ...zone, ...account, region: 'us-east-1' }).customDomain).toBeDefined();
    // The front door's certificate comes from us-east-1: without an explicit region, no stack can be put there.
    expect(() => read(zone)).toThrow(/needs a certificate in us-east-1/);
    expect(read({ ...zone, dashboard: 'false' }).customDomain).toBeDefined();
    expect(() => read({ domainName: 'api.example.com', certificateArn: 'arn:aws:acm:eu-west-1:1:certificate/x' })).toThrow(/certificateArn must be an ACM certificate in us-east-1/);
    expect(read({ domainName: 'api.example.com', certificateArn: 'arn:aws:acm:eu-west-1:1:certificate/x', dashboard: 'false' }).customDomain).toBeDefined();
    expect(() => read({ domainName: 'api.example.com' })).toThrow(/needs certificateArn .* or hostedZoneId and hostedZoneName/);
    expect(() => read({ domainName: 'api.example.com', hostedZoneId: 'Z1' })).toThrow(/go together/);
    expect(() => read({ certificateArn: 'arn:aws:acm:eu-west-1:1:certificate/x' })).toThrow(/need domainName/);
  });
});
