/**
 * What System Settings lets administrators decide about e-mail: which notification events are
 * e-mailed to which kinds of account (the in-app notification is always sent), and the wording of
 * each event's e-mail. Shared by the server, the notifications worker and the settings screen.
 */

/** The kinds of account an e-mail may go to, named as an administrator thinks of them. */
export const MAIL_AUDIENCES = ['administrators', 'partners', 'distributors', 'team_members', 'support', 'manufacturers'] as const;
export type MailAudience = (typeof MAIL_AUDIENCES)[number];

export const MAIL_AUDIENCE_LABELS: Readonly<Record<MailAudience, string>> = {
  administrators: 'Administrators',
  partners: 'Partners',
  distributors: 'Distributors',
  team_members: 'Team members',
  support: 'Support staff',
  manufacturers: 'Manufacturers',
};

export function audienceOfRole(role: string): MailAudience | undefined {
  switch (role) {
    case 'admin':
    case 'administrator':
      return 'administrators';
    case 'partner':
      return 'partners';
    case 'distributor':
      return 'distributors';
    case 'partner_user':
    case 'distributor_user':
      return 'team_members';
    case 'support':
      return 'support';
    case 'manufacturer':
      return 'manufacturers';
    default:
      return undefined;
  }
}

export interface NotificationEventInfo {
  kind: string;
  label: string;
  group: string;
}

/** Every notification the workers send, by its kind. */
export const NOTIFICATION_EVENTS: readonly NotificationEventInfo[] = [
  { kind: 'account-activated', label: 'Account activated', group: 'Accounts' },
  { kind: 'partner-registered', label: 'New partner registration', group: 'Accounts' },
  { kind: 'partner-registrations', label: 'Daily digest of partner registrations', group: 'Accounts' },
  { kind: 'partner-application', label: 'Partner application submitted', group: 'Partners' },
  { kind: 'partner-approved', label: 'Partner approved', group: 'Partners' },
  { kind: 'partner-rejected', label: 'Partner rejected', group: 'Partners' },
  { kind: 'order-status-changed', label: 'Order status changed', group: 'Orders' },
  { kind: 'registration-submitted', label: 'Deal registration submitted', group: 'Projects' },
  { kind: 'registration-conflict', label: 'Deal registration conflict', group: 'Projects' },
  { kind: 'registration-approved', label: 'Deal registration approved', group: 'Projects' },
  { kind: 'registration-rejected', label: 'Deal registration rejected', group: 'Projects' },
  { kind: 'registration-expiring', label: 'Deal registration expiring soon', group: 'Projects' },
  { kind: 'registration-expired', label: 'Deal registration expired', group: 'Projects' },
  { kind: 'registration-extension-requested', label: 'Extension requested', group: 'Projects' },
  { kind: 'registration-extension-approved', label: 'Extension approved', group: 'Projects' },
  { kind: 'registration-extension-declined', label: 'Extension declined', group: 'Projects' },
  { kind: 'rebate-submitted', label: 'Rebate claim submitted', group: 'Rebates' },
  { kind: 'rebate-processing', label: 'Rebate claim in processing', group: 'Rebates' },
  { kind: 'rebate-approved', label: 'Rebate claim approved', group: 'Rebates' },
  { kind: 'rebate-rejected', label: 'Rebate claim rejected', group: 'Rebates' },
  { kind: 'ticket-opened', label: 'Ticket opened', group: 'Tickets' },
  { kind: 'ticket-assigned', label: 'Ticket assigned', group: 'Tickets' },
  { kind: 'ticket-reply', label: 'Support replied on a ticket', group: 'Tickets' },
  { kind: 'ticket-customer-reply', label: 'Customer replied on a ticket', group: 'Tickets' },
  { kind: 'ticket-status-changed', label: 'Ticket status changed', group: 'Tickets' },
  { kind: 'ticket-overdue', label: 'Ticket overdue', group: 'Tickets' },
];

export const NOTIFICATION_KINDS = NOTIFICATION_EVENTS.map((event) => event.kind) as [string, ...string[]];
export const isNotificationKind = (kind: string) => NOTIFICATION_KINDS.includes(kind);

/**
 * Per event kind, the audiences that receive its e-mail. A kind that is not listed is e-mailed to
 * everyone it notifies, so a new kind of notification is never silently dropped.
 */
export interface NotificationSettings {
  mail: Record<string, MailAudience[]>;
}

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = { mail: {} };

export function mailsTo(settings: NotificationSettings | null, kind: string, role: string): boolean {
  const audiences = settings?.mail[kind];
  if (!audiences) return true;
  const audience = audienceOfRole(role);
  return audience !== undefined && audiences.includes(audience);
}

// ---- e-mail templates ----

export interface EmailTemplate {
  subject: string;
  body: string;
}

/** The placeholders a template may use, with what each stands for. */
export const TEMPLATE_PLACEHOLDERS = {
  recipient_name: "The recipient's full name",
  title: "The notification's title",
  message: "The notification's text",
  link: 'The address of the record it is about (empty when there is none)',
  portal: 'The portal name, PartnerHub',
} as const;
export type TemplatePlaceholder = keyof typeof TEMPLATE_PLACEHOLDERS;
export type TemplateValues = Record<TemplatePlaceholder, string>;

/** The wording used when an administrator has not written one for the event. */
export const DEFAULT_EMAIL_TEMPLATE: EmailTemplate = {
  subject: '{{title}}',
  body: 'Hello {{recipient_name}},\n\n{{message}}\n\nOpen {{portal}}: {{link}}\n\n— {{portal}}',
};

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** The placeholders a text names that do not exist. */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!).filter((name) => !Object.hasOwn(TEMPLATE_PLACEHOLDERS, name));
}

/** Fills a template's placeholders; a line left holding only an empty link's label is dropped. */
export function renderTemplate(template: EmailTemplate, values: TemplateValues): EmailTemplate {
  const fill = (text: string) =>
    text.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? values[name as TemplatePlaceholder] : whole));
  const body = values.link
    ? template.body
    : template.body
        .split('\n')
        .filter((line) => !/\{\{\s*link\s*\}\}/.test(line))
        .join('\n')
        .replace(/\n{3,}/g, '\n\n');
  return { subject: fill(template.subject).replace(/\s+/g, ' ').trim(), body: fill(body) };
}

export const SAMPLE_TEMPLATE_VALUES: TemplateValues = {
  recipient_name: 'Alex Morgan',
  title: 'Order ORD-2026-000123 is now Shipped',
  message: 'Your order ORD-2026-000123 was shipped and should arrive by 2026-12-04.',
  link: 'https://portal.example.com/order/track/ORD-2026-000123',
  portal: 'PartnerHub',
};
