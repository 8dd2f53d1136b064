import { Field } from '../../components/Field';

/** The service's defaults (DECISIONS §15): a reminder a week before expiry, a week of grace after a failed payment. */
export const DEFAULT_RENEWAL_REMINDER_DAYS = [7];
export const DEFAULT_GRACE_DAYS = 7;

/** "30, 7" → [30, 7]; blank: none. */
export const reminderDaysOf = (text: string) => text.split(/[\s,]+/).filter(Boolean).map(Number);

/** The service's rule for the list: at most 10 whole days, each 1–60. */
export function reminderDaysProblem(text: string): string | undefined {
  const days = reminderDaysOf(text);
  if (days.length > 10) return 'Reminder days: at most 10';
  return days.every((day) => Number.isInteger(day) && day >= 1 && day <= 60) ? undefined : 'Reminder days: whole numbers from 1 to 60, separated by commas';
}

type Props = {
  reminderDays: string;
  graceDays: string;
  onReminderDays: (value: string) => void;
  onGraceDays: (value: string) => void;
  errorOf: (field: string) => string | undefined;
};

/** Renewal reminders and the grace after a failed payment, as a product sets them. */
export function RenewalFields({ reminderDays, graceDays, onReminderDays, onGraceDays, errorOf }: Props) {
  return (
    <fieldset className="checkboxes">
      <legend>Renewals</legend>
      <Field
        label="Renewal reminder days"
        hint="Days before expiry a license that will not renew is e-mailed a reminder, e.g. 30, 7; blank: no reminders"
        error={errorOf('renewalReminderDays')}
      >
        <input value={reminderDays} onChange={(e) => onReminderDays(e.target.value)} />
      </Field>
      <Field label="Grace days after a failed payment" hint="0 to 30: the license stays valid this long after its paid period" error={errorOf('graceDays')}>
        <input type="number" min={0} max={30} value={graceDays} onChange={(e) => onGraceDays(e.target.value)} />
      </Field>
    </fieldset>
  );
}
