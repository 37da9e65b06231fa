import {
  ANNUAL_TURNOVERS,
  AUDITED_ANSWERS,
  BUSINESS_ACTIVITIES,
  BUSINESS_TYPES,
  choseOther,
  COUNTRIES,
  CURRENCIES,
  EMPLOYEE_RANGES,
  emptyQuestionnaire,
  INCORPORATION_COUNTRIES,
  JOB_TITLES,
  MANDATORY_FIELDS,
  MONTHS,
  OTHER_FOLLOW_UPS,
  problemOf,
  questionnaireProblems,
  TARGET_MARKETS,
  type MandatoryField,
  type QuestionnaireAnswers,
  type QuestionnaireField,
} from '@domain/partners/questionnaire';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  InputAdornment,
  Link as MuiLink,
  MenuItem,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { readOnboardingHandoff, type OnboardingHandoff } from '../auth/onboardingHandoff';
import { usePageTitle } from '../layout/pageTitle';
import { ApiError } from '../providers/errorMapper';
import { submitQuestionnaire } from '../partners/partnersApi';
import { OnboardingFrame, RegisterFirst } from './OnboardingFrame';

export const QUESTIONNAIRE_SUCCESS = 'Questionnaire submitted! Wait for Admin approval';
export const QUESTIONNAIRE_FAILURE = 'Submission failed. Please try again.';
export const REDIRECT_AFTER_MS = 2000;

const MANDATORY_ORDER = MANDATORY_FIELDS.map(([field]) => field) as readonly MandatoryField[];
const FOLLOW_UP_OF = new Map<QuestionnaireField, QuestionnaireField>(OTHER_FOLLOW_UPS.map((f) => [f.other, f.field]));

/** A mandatory field opens once every mandatory field before it is complete; optional fields are always open. */
function lockedFields(values: QuestionnaireAnswers): Set<QuestionnaireField> {
  const locked = new Set<QuestionnaireField>();
  let open = true;
  for (const field of MANDATORY_ORDER) {
    if (!open) locked.add(field);
    if (open && problemOf(values, field)) open = false;
  }
  for (const [other, parent] of FOLLOW_UP_OF) if (locked.has(parent)) locked.add(other);
  return locked;
}

const mandatoryComplete = (values: QuestionnaireAnswers) => MANDATORY_ORDER.every((field) => !problemOf(values, field));

/** Scrolls to and focuses the field's input. */
function focusField(field: QuestionnaireField) {
  const box = document.querySelector<HTMLElement>(`[data-field="${field}"]`);
  if (!box) return;
  box.scrollIntoView({ behavior: 'smooth', block: 'center' });
  const input = box.querySelector<HTMLElement>('[role="combobox"], input:not([type="hidden"]):not([aria-hidden="true"]), textarea');
  input?.focus({ preventScroll: true });
}

const TERMS = [
  'Partners represent the vendor’s products honestly and follow its brand guidelines.',
  'Deal registrations are valid for 60 days from submission and are granted to the first partner who registers the opportunity.',
  'Pricing, rebate terms and portal content are confidential and may not be shared outside your organisation.',
  'You confirm that the information in this questionnaire is accurate and agree that it may be verified, including through the references you give.',
  'Either party may end the partnership with 30 days’ written notice.',
];

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2" sx={{ fontSize: '1.05rem', fontWeight: 600, mb: 1.5, pb: 0.5, borderBottom: 1, borderColor: 'divider' }}>
        {title}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>{children}</Box>
    </Box>
  );
}

/** /partner-onboarding (signed out): the single-page onboarding questionnaire. */
export default function OnboardingQuestionnaire() {
  usePageTitle('Partner Onboarding');
  const navigate = useNavigate();
  const state = useLocation().state as OnboardingHandoff | null;
  const handoff = state?.userId ? state : readOnboardingHandoff();

  const [values, setValues] = useState<QuestionnaireAnswers>(() => ({
    ...emptyQuestionnaire(),
    company_name: handoff?.company_name ?? '',
    contact_email: handoff?.email ?? '',
  }));
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const [termsOpen, setTermsOpen] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [outcome, setOutcome] = useState<{ severity: 'success' | 'error'; text: string; detail?: string } | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirect.current), []);

  const problems = useMemo(() => new Map(questionnaireProblems(values).map((p) => [p.field as string, p.message])), [values]);
  const locked = useMemo(() => lockedFields(values), [values]);
  const complete = mandatoryComplete(values);

  // The terms open by themselves once every mandatory answer is in, unless already agreed.
  const wasComplete = useRef(complete);
  useEffect(() => {
    if (complete && !wasComplete.current && !values.agreed_to_terms) setTermsOpen(true);
    wasComplete.current = complete;
  }, [complete, values.agreed_to_terms]);

  if (!handoff) {
    return (
      <OnboardingFrame maxWidth={640}>
        <RegisterFirst />
      </OnboardingFrame>
    );
  }

  const set = <F extends QuestionnaireField>(field: F, value: QuestionnaireAnswers[F]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setServerErrors((errors) => {
      if (!errors[field]) return errors;
      const { [field]: _gone, ...rest } = errors;
      return rest;
    });
  };
  const touch = (field: string) => setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));
  const errorOf = (field: QuestionnaireField) => serverErrors[field] ?? (attempted || touched.has(field) ? problems.get(field) : undefined);
  const required = (field: QuestionnaireField) => (MANDATORY_ORDER as readonly string[]).includes(field) || FOLLOW_UP_OF.has(field);

  const lockHint = (field: QuestionnaireField) =>
    locked.has(field) ? (
      <InputAdornment position="end">
        <LockOutlinedIcon fontSize="small" color="disabled" aria-label="Complete the fields above first" />
      </InputAdornment>
    ) : undefined;

  const textField = (
    field: QuestionnaireField,
    label: string,
    options: { placeholder?: string; type?: string; readOnly?: boolean; multiline?: boolean; helper?: string; wide?: boolean } = {},
  ) => {
    const error = errorOf(field);
    return (
      <Box data-field={field} sx={{ gridColumn: options.wide ? '1 / -1' : undefined, minWidth: 0 }}>
        <TextField
          id={`q-${field}`}
          name={field}
          label={label}
          type={options.type ?? 'text'}
          value={values[field] as string}
          onChange={(event) => set(field, event.target.value as never)}
          onBlur={() => touch(field)}
          required={required(field)}
          disabled={locked.has(field)}
          placeholder={options.placeholder}
          multiline={options.multiline}
          minRows={options.multiline ? 2 : undefined}
          error={Boolean(error)}
          helperText={error ?? options.helper}
          fullWidth
          slotProps={{ input: { readOnly: options.readOnly, endAdornment: lockHint(field) } }}
        />
      </Box>
    );
  };

  const selectField = (field: QuestionnaireField, label: string, choices: readonly string[]) => {
    const error = errorOf(field);
    return (
      <Box data-field={field} sx={{ minWidth: 0 }}>
        <TextField
          id={`q-${field}`}
          name={field}
          select
          label={label}
          value={values[field] as string}
          onChange={(event) => set(field, event.target.value as never)}
          onBlur={() => touch(field)}
          required={required(field)}
          disabled={locked.has(field)}
          error={Boolean(error)}
          helperText={error}
          fullWidth
        >
          {choices.map((choice) => (
            <MenuItem key={choice} value={choice}>
              {choice}
            </MenuItem>
          ))}
        </TextField>
      </Box>
    );
  };

  /** The free-text follow-up of a field set to Other. */
  const otherField = (parent: QuestionnaireField, label: string) => {
    const followUp = OTHER_FOLLOW_UPS.find((f) => f.field === parent)!;
    return choseOther(values, parent) ? textField(followUp.other, label) : null;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    setAttempted(true);
    setOutcome(null);
    const [first] = questionnaireProblems(values);
    if (first) {
      if (first.field === 'agreed_to_terms') focusField('agreed_to_terms');
      else focusField(first.field);
      return;
    }
    setSubmitting(true);
    try {
      const { status } = await submitQuestionnaire({ ...values, user_id: handoff.userId }, handoff.onboardingToken);
      if (status !== 201) throw new Error(QUESTIONNAIRE_FAILURE);
      setOutcome({ severity: 'success', text: QUESTIONNAIRE_SUCCESS });
      redirect.current = setTimeout(() => navigate('/signin?type=partner'), REDIRECT_AFTER_MS);
    } catch (error) {
      // The specification's message, and beneath it what the server said, so the applicant knows why.
      const detail = error instanceof ApiError && error.message !== QUESTIONNAIRE_FAILURE ? error.message : undefined;
      if (error instanceof ApiError) setServerErrors(error.fieldErrors);
      setOutcome({ severity: 'error', text: QUESTIONNAIRE_FAILURE, detail });
      setSubmitting(false);
    }
  };

  const agree = () => {
    set('agreed_to_terms', true);
    setTermsOpen(false);
  };
  const done = outcome?.severity === 'success';
  const termsError = errorOf('agreed_to_terms');

  return (
    <OnboardingFrame>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
        Partner Onboarding Questionnaire
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, mb: 1 }}>
        Tell us about {values.company_name || 'your company'}. Required fields open one after another as you complete them; optional ones can be filled at any
        time.
      </Typography>
      <Typography variant="body2" sx={{ mb: 3 }}>
        Prefer a guided application with your company logo?{' '}
        <MuiLink component={Link} to="/partneronboarding" state={handoff}>
          Use the step-by-step onboarding wizard
        </MuiLink>
        .
      </Typography>

      <Box component="form" noValidate onSubmit={submit}>
        <Section title="Basic Information">
          {textField('company_name', 'Company Name')}
          {textField('contact_email', 'Email Address', { type: 'email', readOnly: true, helper: 'The address you registered with' })}
          {textField('contact_name', 'Contact Name')}
          {textField('phone_number', 'Phone Number', { type: 'tel', placeholder: '+1 555 010 0000', helper: 'Include the country code' })}
          {selectField('job_title', 'Job Title', JOB_TITLES)}
          {otherField('job_title', 'Please specify your job title')}
          {textField('website', 'Website (optional)', { placeholder: 'https://example.com' })}
          {selectField('country', 'Country', COUNTRIES)}
          {otherField('country', 'Please specify your country')}
          {textField('city', 'City')}
          {textField('location', 'Location', { placeholder: 'Street address or business district', wide: true })}
          {textField('state_region', 'State / Region (optional)', { placeholder: 'e.g. Greater London' })}
          {textField('postal_code', 'Postal Code (optional)', { placeholder: 'e.g. E14 9GE' })}
        </Section>

        <Section title="Business Type">
          {selectField('business_type', 'Business Type', BUSINESS_TYPES)}
          {otherField('business_type', 'Please specify your business type')}
          {textField('years_in_operation', 'Years in Operation', { placeholder: 'e.g. 12' })}
          {selectField('employees_range', 'Number of Employees', EMPLOYEE_RANGES)}
        </Section>

        <Section title="Business Description">
          {selectField('business_description', 'Business Activities', BUSINESS_ACTIVITIES)}
          {otherField('business_description', 'Please specify your business activities')}
          {textField('key_products', 'Key Products or Services (optional)', { multiline: true, wide: true })}
          <Box data-field="target_markets" sx={{ gridColumn: '1 / -1', minWidth: 0 }}>
            <TextField
              id="q-target_markets"
              name="target_markets"
              select
              label="Target Markets"
              value={values.target_markets}
              onChange={(event) =>
                set('target_markets', (typeof event.target.value === 'string' ? event.target.value.split(',') : event.target.value) as string[])
              }
              onBlur={() => touch('target_markets')}
              required
              disabled={locked.has('target_markets')}
              error={Boolean(errorOf('target_markets'))}
              helperText={errorOf('target_markets') ?? 'Choose one or more'}
              fullWidth
              slotProps={{
                select: {
                  multiple: true,
                  renderValue: (selected) => (
                    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                      {(selected as string[]).map((market) => (
                        <Chip key={market} label={market} size="small" />
                      ))}
                    </Box>
                  ),
                },
              }}
            >
              {TARGET_MARKETS.map((market) => (
                <MenuItem key={market} value={market}>
                  <Checkbox size="small" checked={values.target_markets.includes(market)} sx={{ p: 0.5, mr: 1 }} />
                  {market}
                </MenuItem>
              ))}
            </TextField>
          </Box>
          {otherField('target_markets', 'Please specify your target markets')}
        </Section>

        <Section title="Business Registration">
          {textField('business_registration_number', 'Business Registration Number')}
          {textField('tax_id', 'Tax ID (optional)')}
          {selectField('country_of_incorporation', 'Country of Incorporation', INCORPORATION_COUNTRIES)}
          {otherField('country_of_incorporation', 'Please specify your country of incorporation')}
        </Section>

        <Section title="Financial Information">
          {selectField('annual_turnover', 'Annual Turnover', ANNUAL_TURNOVERS)}
          {otherField('annual_turnover', 'Please specify your annual turnover')}
          {selectField('turnover_currency', 'Currency', CURRENCIES)}
          {otherField('turnover_currency', 'Please specify your currency')}
          {selectField('fiscal_year_end_month', 'Fiscal Year End Month', MONTHS)}
          <Box data-field="are_financials_audited" sx={{ minWidth: 0 }}>
            <FormControl required disabled={locked.has('are_financials_audited')} error={Boolean(errorOf('are_financials_audited'))}>
              <FormLabel id="q-audited-label">Are your financials audited?</FormLabel>
              <RadioGroup
                row
                aria-labelledby="q-audited-label"
                name="are_financials_audited"
                value={values.are_financials_audited}
                onChange={(event) => set('are_financials_audited', event.target.value)}
                onBlur={() => touch('are_financials_audited')}
              >
                {AUDITED_ANSWERS.map((answer) => (
                  <FormControlLabel key={answer} value={answer} control={<Radio size="small" />} label={answer} />
                ))}
              </RadioGroup>
              {errorOf('are_financials_audited') ? <FormHelperText>{errorOf('are_financials_audited')}</FormHelperText> : null}
            </FormControl>
          </Box>
        </Section>

        <Box data-field="agreed_to_terms" sx={{ mb: 2 }}>
          <FormControl error={Boolean(termsError)}>
            <FormControlLabel
              control={<Checkbox name="agreed_to_terms" checked={values.agreed_to_terms} onChange={(event) => set('agreed_to_terms', event.target.checked)} />}
              label={
                <span>
                  I agree to the{' '}
                  <MuiLink
                    component="button"
                    type="button"
                    onClick={(event: React.MouseEvent) => {
                      event.preventDefault();
                      setTermsOpen(true);
                    }}
                    sx={{ verticalAlign: 'baseline' }}
                  >
                    Terms and Conditions
                  </MuiLink>
                </span>
              }
            />
            {termsError ? <FormHelperText>{termsError}</FormHelperText> : null}
          </FormControl>
        </Box>

        {outcome ? (
          <Alert severity={outcome.severity} sx={{ mb: 2 }} data-testid="questionnaire-outcome">
            {outcome.text}
            {outcome.detail ? <Box sx={{ mt: 0.5 }}>{outcome.detail}</Box> : null}
          </Alert>
        ) : null}
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
          <Button type="submit" variant="contained" size="large" disabled={submitting || done} sx={{ flex: { xs: '1 1 100%', sm: '0 0 auto' } }}>
            {submitting && !done ? 'Submitting...' : 'Submit Questionnaire'}
          </Button>
          <Button variant="text" onClick={() => navigate('/signin?type=partner')} disabled={submitting && !done}>
            Back to sign in
          </Button>
        </Box>
      </Box>

      <Dialog open={termsOpen} onClose={() => setTermsOpen(false)} aria-labelledby="terms-title" fullWidth maxWidth="sm">
        <DialogTitle id="terms-title">Terms and Conditions</DialogTitle>
        <DialogContent dividers>
          <Typography variant="body2" sx={{ mb: 1.5 }}>
            By joining the partner programme, {values.company_name || 'your company'} agrees to the following:
          </Typography>
          <Box component="ol" sx={{ pl: 2.5, m: 0 }}>
            {TERMS.map((term) => (
              <Typography key={term} component="li" variant="body2" sx={{ mb: 1 }}>
                {term}
              </Typography>
            ))}
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setTermsOpen(false)}>Close</Button>
          <Button variant="contained" onClick={agree}>
            I Agree
          </Button>
        </DialogActions>
      </Dialog>
    </OnboardingFrame>
  );
}
