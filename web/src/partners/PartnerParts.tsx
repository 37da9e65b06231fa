import { displayAnswer, type QuestionnaireAnswers } from '@domain/partners/questionnaire';
import { isPermission, permissionLabel } from '@domain/access';
import { Avatar, Box, Chip, Typography } from '@mui/material';
import { useState } from 'react';
import { formatDate, formatDateTime } from '../formatting';
import type { PartnerRecord, PartnerStatus } from './partnersApi';

export const NOT_PROVIDED = 'Not provided';

const STATUS_LOOK: Record<PartnerStatus, { label: string; color: 'warning' | 'success' | 'error' }> = {
  pending: { label: 'Pending', color: 'warning' },
  approved: { label: 'Approved', color: 'success' },
  rejected: { label: 'Rejected', color: 'error' },
};

export function PartnerStatusChip({ status }: { status: PartnerStatus }) {
  const look = STATUS_LOOK[status] ?? { label: status, color: 'default' };
  return <Chip size="small" label={look.label} color={look.color} variant={status === 'pending' ? 'outlined' : 'filled'} data-status={status} />;
}

const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter((word) => /^[A-Za-zÀ-ÿ0-9]/.test(word))
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('') || '?';

/** The company logo from the uploads area, or the company's initials when there is none (or it fails to load). */
export function PartnerLogo({ partner, size = 48 }: { partner: Pick<PartnerRecord, 'company_name' | 'company_logo_url'>; size?: number }) {
  const [failed, setFailed] = useState(false);
  const src = partner.company_logo_url && !failed ? partner.company_logo_url : undefined;
  return (
    <Avatar
      variant="rounded"
      src={src}
      alt={src ? `${partner.company_name} logo` : undefined}
      slotProps={{ img: { onError: () => setFailed(true), style: { objectFit: 'contain' } } }}
      sx={{ width: size, height: size, bgcolor: src ? 'transparent' : 'primary.main', fontWeight: 700, fontSize: size / 2.6, flexShrink: 0 }}
    >
      {initialsOf(partner.company_name)}
    </Avatar>
  );
}

/** "City, Country", with the Other text for the country. */
export function placeOf(partner: Pick<PartnerRecord, 'city' | 'country'> & { country_other?: string | null }): string {
  const country = partner.country === 'Other' && partner.country_other ? partner.country_other : partner.country;
  return [partner.city, country].filter(Boolean).join(', ');
}

/** The business type, or its free text when the type is Other. */
export function businessTypeOf(partner: Pick<PartnerRecord, 'business_type' | 'business_type_other'>): string | null {
  return partner.business_type === 'Other' && partner.business_type_other ? partner.business_type_other : partner.business_type;
}

type Field = { key: keyof PartnerRecord & string; label: string; kind?: 'date' | 'permissions' | 'answer' };

/** The application as the admin reads it, in sections. */
export const PARTNER_SECTIONS: ReadonlyArray<{ title: string; fields: readonly Field[] }> = [
  {
    title: 'Basic Information',
    fields: [
      { key: 'company_name', label: 'Company Name' },
      { key: 'contact_name', label: 'Contact Name' },
      { key: 'contact_email', label: 'Email Address' },
      { key: 'phone_number', label: 'Phone Number' },
      { key: 'job_title', label: 'Job Title', kind: 'answer' },
      { key: 'website', label: 'Website' },
      { key: 'country', label: 'Country', kind: 'answer' },
      { key: 'city', label: 'City' },
      { key: 'location', label: 'Location' },
      { key: 'state_region', label: 'State / Region' },
      { key: 'postal_code', label: 'Postal Code' },
      { key: 'business_address', label: 'Business Address' },
      { key: 'region', label: 'Region' },
    ],
  },
  {
    title: 'Business Type',
    fields: [
      { key: 'business_type', label: 'Business Type', kind: 'answer' },
      { key: 'years_in_operation', label: 'Years in Operation' },
      { key: 'years_in_business', label: 'Years in Business' },
      { key: 'employees_range', label: 'Employees' },
    ],
  },
  {
    title: 'Business Description',
    fields: [
      { key: 'business_description', label: 'Business Activities', kind: 'answer' },
      { key: 'key_products', label: 'Key Products' },
      { key: 'target_markets', label: 'Target Markets', kind: 'answer' },
      { key: 'certifications', label: 'Certifications' },
      { key: 'partner_references', label: 'Partner References' },
      { key: 'requested_category', label: 'Preferred Partnership Category' },
    ],
  },
  {
    title: 'Business Registration',
    fields: [
      { key: 'business_registration_number', label: 'Business Registration Number' },
      { key: 'tax_id', label: 'Tax ID' },
      { key: 'country_of_incorporation', label: 'Country of Incorporation', kind: 'answer' },
    ],
  },
  {
    title: 'Financial Information',
    fields: [
      { key: 'annual_turnover', label: 'Annual Turnover', kind: 'answer' },
      { key: 'turnover_currency', label: 'Currency', kind: 'answer' },
      { key: 'fiscal_year_end_month', label: 'Fiscal Year End' },
      { key: 'are_financials_audited', label: 'Financials Audited' },
      { key: 'agreed_to_terms', label: 'Agreed to Terms' },
    ],
  },
  {
    title: 'Decision',
    fields: [
      { key: 'category', label: 'Partner Category' },
      { key: 'granted_permissions', label: 'Granted Permissions', kind: 'permissions' },
      { key: 'rejection_reason', label: 'Rejection Reason' },
      { key: 'decided_at', label: 'Decided', kind: 'date' },
      { key: 'created_at', label: 'Submitted', kind: 'date' },
    ],
  },
];

export function fieldText(partner: PartnerRecord, field: Field): string {
  const value = partner[field.key];
  if (field.kind === 'date') return typeof value === 'string' ? formatDateTime(value) : NOT_PROVIDED;
  if (field.kind === 'permissions') {
    const list = Array.isArray(value) ? (value as string[]) : [];
    return list.length ? list.map((p) => (isPermission(p) ? permissionLabel(p) : p)).join(', ') : NOT_PROVIDED;
  }
  if (field.kind === 'answer') {
    const text = displayAnswer(partner as Partial<QuestionnaireAnswers>, field.key as keyof QuestionnaireAnswers); // an unanswered field is null here, which displayAnswer reads as unanswered
    return text || NOT_PROVIDED;
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (value === null || value === undefined || (typeof value === 'string' && !value.trim())) return NOT_PROVIDED;
  return String(value);
}

/** Label and value, the value breaking anywhere so long text never widens the page. */
export function FieldRow({ label, value }: { label: string; value: string }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: '200px minmax(0, 1fr)' },
        gap: { xs: 0, sm: 2 },
        py: 0.75,
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere', color: value === NOT_PROVIDED ? 'text.disabled' : 'text.primary' }}>
        {value}
      </Typography>
    </Box>
  );
}

export const submittedOn = (partner: PartnerRecord) => formatDate(partner.created_at);
