import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';

/**
 * An alarm on a count of failures: in alarm from the first period that counts one, OK while nothing is counted (no
 * data is no failure); each action is told of both. The constructs' own alarms (call state, task worker) are these.
 */
export function failureCountAlarm(
  scope: Construct,
  id: string,
  metric: cloudwatch.IMetric,
  description: string,
  actions: readonly cloudwatch.IAlarmAction[] = [],
): cloudwatch.Alarm {
  const alarm = new cloudwatch.Alarm(scope, id, {
    metric,
    threshold: 1,
    evaluationPeriods: 1,
    datapointsToAlarm: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    alarmDescription: description,
  });
  for (const action of actions) {
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
  }
  return alarm;
}
