import { Stack } from 'aws-cdk-lib';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { settingValue } from './setting-value.js';

export interface AlarmTopicProps {
  readonly topicName: string;
  /** Subscribed by e-mail (AWS sends a confirmation first); unset, the topic has no subscription, to add by hand. */
  readonly email?: string;
}

/** The SNS topic every alarm of the stack reports to, when it goes off and when it is OK again. */
export class AlarmTopic extends Construct {
  readonly topic: Topic;
  private readonly action: SnsAction;

  constructor(scope: Construct, id: string, props: AlarmTopicProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', { topicName: props.topicName, displayName: 'Licensing service alarms', enforceSSL: true });
    // enforceSSL gives the topic a policy of its own, which replaces SNS's default one: without this statement no alarm
    // could publish ("not authorized to perform: SNS:Publish … because no resource-based policy allows").
    const { account, region, partition } = Stack.of(this);
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowThisAccountsAlarms',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': account },
          ArnLike: { 'aws:SourceArn': `arn:${partition}:cloudwatch:${region}:${account}:alarm:*` },
        },
      }),
    );
    if (props.email) this.topic.addSubscription(new EmailSubscription(settingValue(this, props.email)));
    this.action = new SnsAction(this.topic);
    NagSuppressions.addResourceSuppressions(this.topic, [
      {
        id: 'AwsSolutions-SNS2',
        reason: 'Alarm notices name alarms and metrics, no customer data; CloudWatch cannot publish to a topic under the AWS-managed SNS key, and a customer key would cost more than the notices are worth protecting',
      },
    ]);
  }

  notify(alarm: Alarm): void {
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
  }
}
