import {
  APPLICATION_LABELS,
  emptyApplication,
  LOGO_MAX_BYTES,
  PARTNER_CATEGORIES,
  REGIONS,
  type ApplicationDetails,
  type ApplicationField,
} from '@domain/partners/application';
import { BUSINESS_TYPES } from '@domain/partners/questionnaire';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import {
  Alert,
  Avatar,
  Box,
  Button,
  LinearProgress,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  MenuItem,
  Step,
  StepLabel,
  Stepper,
  TextField,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useEffect, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { readOnboardingHandoff, type OnboardingHandoff } from '../auth/onboardingHandoff';
import { usePageTitle } from '../layout/pageTitle';
import { answerMessageOf } from '../providers/errorMapper';
import { getAccessToken, getRole, getStoredUser } from '../providers/session';
import { submitApplication } from '../partners/partnersApi';
import { FieldRow, NOT_PROVIDED } from '../partners/PartnerParts';
import { OnboardingFrame, RegisterFirst } from './OnboardingFrame';
import { OwnApplication, useOwnApplication } from './OwnApplication';
import { Loading } from '../layout/ListStates';

export const WIZARD_STEPS = ['Welcome', 'Company Info', 'Qualifications', 'Review', 'Approval'] as const;
export const APPLICATION_SUBMITTED = 'Application Submitted!';
export const NEXT_STEPS = ['Application review', 'Background and reference check', 'Welcome package and account setup', 'Access to partner portal'] as const;
const SUBMISSION_FAILED = 'Submission failed';
const SUBMISSION_EXCEPTION = 'An error occurred during submission.';

interface Applicant {
  userId: string;
  fullName: string;
  email: string;
  companyName: string;
  onboardingToken?: string;
  /** The partner's own session: their application may already be sent. */
  signedIn?: boolean;
}

/**
 * Who is applying: a registration handed over in navigation state, else the signed-in partner, else
 * the hand-over kept for this tab (an applicant continuing after sign-in). The signed-in account comes
 * before a kept hand-over, which may be left from an earlier application in the same tab.
 */
function useApplicant(): Applicant | null {
  const state = useLocation().state as OnboardingHandoff | null;
  const fromHandoff = (handoff: OnboardingHandoff): Applicant => ({
    userId: handoff.userId,
    fullName: handoff.full_name,
    email: handoff.email,
    companyName: handoff.company_name ?? '',
    onboardingToken: handoff.onboardingToken,
  });
  if (state?.userId) return fromHandoff(state);
  const user = getStoredUser();
  if (user && getAccessToken() && getRole() === 'partner') {
    return { userId: user.id, fullName: user.full_name, email: user.email, companyName: user.company?.company_name ?? user.company_name ?? '', signedIn: true };
  }
  const kept = readOnboardingHandoff();
  return kept ? fromHandoff(kept) : null;
}

const REVIEW_FIELDS: readonly ApplicationField[] = [
  'company_name',
  'contact_email',
  'phone_number',
  'business_type',
  'business_address',
  'years_in_business',
  'region',
  'certifications',
  'partner_references',
  'category',
];

function StepHeading({ title, text }: { title: string; text: string }) {
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="h6" component="h2" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {text}
      </Typography>
    </Box>
  );
}

const Grid = ({ children }: { children: ReactNode }) => (
  <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>{children}</Box>
);

/** /partneronboarding: the five-step partner application (Welcome, Company Info, Qualifications, Review, Approval). */
export default function OnboardingWizard() {
  usePageTitle('Partner Onboarding');
  const navigate = useNavigate();
  const applicant = useApplicant();
  const own = useOwnApplication(applicant?.signedIn ? applicant.userId : null);
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const [step, setStep] = useState(1);
  const [details, setDetails] = useState<ApplicationDetails>(() => ({
    ...emptyApplication(),
    company_name: applicant?.companyName ?? '',
    contact_email: applicant?.email ?? '',
  }));
  const [logo, setLogo] = useState<File | null>(null);
  const [logoPreview, setLogoPreview] = useState<string | null>(null);
  const [logoError, setLogoError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!logo) return setLogoPreview(null);
    const url = URL.createObjectURL(logo);
    setLogoPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [logo]);

  if (!applicant) {
    return (
      <OnboardingFrame maxWidth={640}>
        <RegisterFirst />
      </OnboardingFrame>
    );
  }
  if (own.state === 'loading') {
    return (
      <OnboardingFrame maxWidth={640}>
        <Loading />
      </OnboardingFrame>
    );
  }
  if (own.state === 'sent') {
    return (
      <OnboardingFrame maxWidth={640}>
        <OwnApplication partner={own.partner} />
      </OnboardingFrame>
    );
  }

  const set = (field: ApplicationField) => (event: React.ChangeEvent<HTMLInputElement>) => setDetails((d) => ({ ...d, [field]: event.target.value }));
  const field = (name: ApplicationField, options: { multiline?: boolean; type?: string; wide?: boolean; placeholder?: string } = {}) => (
    <TextField
      name={name}
      label={APPLICATION_LABELS[name]}
      value={details[name]}
      onChange={set(name)}
      type={options.type}
      placeholder={options.placeholder}
      multiline={options.multiline}
      minRows={options.multiline ? 3 : undefined}
      fullWidth
      sx={{ gridColumn: options.wide ? '1 / -1' : undefined }}
    />
  );
  const select = (name: ApplicationField, choices: readonly string[]) => (
    <TextField name={name} select label={APPLICATION_LABELS[name]} value={details[name]} onChange={set(name)} fullWidth>
      <MenuItem value="">
        <em>Not selected</em>
      </MenuItem>
      {choices.map((choice) => (
        <MenuItem key={choice} value={choice}>
          {choice}
        </MenuItem>
      ))}
    </TextField>
  );

  const chooseLogo = (file: File | undefined) => {
    setLogoError(null);
    if (!file) return setLogo(null);
    if (!file.type.startsWith('image/')) return setLogoError('Please choose an image: PNG, JPG or SVG.');
    if (file.size > LOGO_MAX_BYTES) return setLogoError('Company logo must be at most 5 MB.');
    setLogo(file);
  };

  const reviewValue = (name: ApplicationField) => {
    const value =
      name === 'business_type' && details.business_type === 'Other' && details.business_type_other.trim() ? details.business_type_other : details[name];
    return value.trim() ? value : NOT_PROVIDED;
  };

  const submit = async () => {
    setSubmitting(true);
    setError(null);
    const form = new FormData();
    for (const [name, value] of Object.entries(details)) form.append(name, value);
    form.append('user_id', applicant.userId);
    if (logo) form.append('company_logo', logo, logo.name);
    try {
      const { status, answer } = await submitApplication(form, applicant.onboardingToken);
      // Only a 201 moves on to the Approval step.
      if (status === 201) setStep(5);
      else setError(answer.message || SUBMISSION_FAILED);
    } catch (e) {
      setError(answerMessageOf(e, SUBMISSION_FAILED, SUBMISSION_EXCEPTION));
    } finally {
      setSubmitting(false);
    }
  };

  const next = () => (step === 4 ? void submit() : setStep((s) => Math.min(4, s + 1)));

  return (
    <OnboardingFrame>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 2 }}>
        Partner Onboarding
      </Typography>
      <Box sx={{ mb: 3 }}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', mb: 0.5 }}>
          <Typography variant="body2" color="text.secondary">
            Step {step} of {WIZARD_STEPS.length}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {Math.round((step / WIZARD_STEPS.length) * 100)}%
          </Typography>
        </Box>
        <LinearProgress variant="determinate" value={(step / WIZARD_STEPS.length) * 100} aria-label="Onboarding progress" sx={{ height: 8, borderRadius: 4 }} />
      </Box>
      <Stepper
        activeStep={step - 1}
        alternativeLabel
        sx={{ mb: 3, '& .MuiStepLabel-label': { fontSize: { xs: '0.7rem', sm: '0.875rem' }, mt: { xs: 0.5, sm: 1 } } }}
      >
        {WIZARD_STEPS.map((label, index) => {
          const state = index + 1 < step ? 'completed' : index + 1 === step ? 'active' : 'inactive';
          return (
            <Step key={label} completed={index + 1 < step} data-testid="wizard-step" data-state={state}>
              <StepLabel>{phone && index + 1 !== step ? '' : label}</StepLabel>
            </Step>
          );
        })}
      </Stepper>

      {step === 1 ? (
        <Box>
          <StepHeading
            title={`Welcome${applicant.fullName ? `, ${applicant.fullName}` : ''}!`}
            text="Thank you for your interest in becoming a partner. This application takes about five minutes."
          />
          <Typography variant="body2" sx={{ mb: 1 }}>
            You will tell us about:
          </Typography>
          <List dense disablePadding>
            {[
              'Your company: contact details, business type, address, region and logo',
              'Your qualifications: certifications, references and the partnership category you would like',
              'A final review before you submit',
            ].map((item) => (
              <ListItem key={item} disableGutters>
                <ListItemIcon sx={{ minWidth: 32 }}>
                  <CheckCircleIcon fontSize="small" color="primary" />
                </ListItemIcon>
                <ListItemText primary={item} />
              </ListItem>
            ))}
          </List>
        </Box>
      ) : null}

      {step === 2 ? (
        <Box>
          <StepHeading title="Company Info" text="How we reach you and where you do business." />
          <Grid>
            {field('company_name')}
            {field('contact_email', { type: 'email' })}
            {field('phone_number', { type: 'tel', placeholder: '+1 555 010 0000' })}
            {select('business_type', BUSINESS_TYPES)}
            {details.business_type === 'Other' ? field('business_type_other') : null}
            {field('years_in_business')}
            {select('region', REGIONS)}
            {field('business_address', { multiline: true, wide: true })}
          </Grid>
          <Box sx={{ mt: 2, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
            {logoPreview ? (
              <Avatar
                variant="rounded"
                src={logoPreview}
                alt="Logo preview"
                sx={{ width: 56, height: 56 }}
                slotProps={{ img: { style: { objectFit: 'contain' } } }}
              />
            ) : null}
            <Box>
              <Button component="label" variant="outlined" startIcon={<CloudUploadIcon />}>
                {logo ? 'Change Company Logo' : 'Upload Company Logo'}
                <input
                  hidden
                  type="file"
                  name="company_logo"
                  accept="image/png,image/jpeg,image/svg+xml,image/gif,image/webp"
                  onChange={(event) => chooseLogo(event.target.files?.[0])}
                />
              </Button>
              <Typography variant="caption" color={logoError ? 'error' : 'text.secondary'} component="div" sx={{ mt: 0.5 }}>
                {logoError ?? (logo ? logo.name : 'PNG, JPG or SVG up to 5MB')}
              </Typography>
            </Box>
          </Box>
        </Box>
      ) : null}

      {step === 3 ? (
        <Box>
          <StepHeading title="Qualifications" text="What makes your company a strong partner." />
          <Grid>
            {field('certifications', { multiline: true, wide: true, placeholder: 'e.g. ISO 9001, certified network engineers' })}
            {field('partner_references', { multiline: true, wide: true, placeholder: 'Customers or vendors we may contact' })}
            <Box sx={{ gridColumn: '1 / -1' }}>{select('category', PARTNER_CATEGORIES)}</Box>
          </Grid>
        </Box>
      ) : null}

      {step === 4 ? (
        <Box data-testid="wizard-review">
          <StepHeading title="Review" text="Check your application before you submit it." />
          {[...REVIEW_FIELDS.map((name) => [APPLICATION_LABELS[name], reviewValue(name)] as const), ['Company Logo', logo?.name ?? NOT_PROVIDED] as const].map(
            ([label, value]) => (
              <FieldRow key={label} label={label} value={value} />
            ),
          )}
        </Box>
      ) : null}

      {step === 5 ? (
        <Box sx={{ textAlign: 'center', py: 2 }} data-testid="wizard-submitted">
          <CheckCircleIcon color="success" sx={{ fontSize: 56 }} />
          <Typography variant="h5" component="h2" sx={{ fontWeight: 700, mt: 1 }}>
            {APPLICATION_SUBMITTED}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            We will review your application within 2-3 business days and e-mail you the outcome.
          </Typography>
          <Typography variant="subtitle2" sx={{ mt: 3, mb: 1 }}>
            What happens next
          </Typography>
          <Box component="ol" sx={{ textAlign: 'left', display: 'inline-block', m: 0, pl: 3 }}>
            {NEXT_STEPS.map((item) => (
              <Typography key={item} component="li" variant="body2" sx={{ mb: 0.5 }}>
                {item}
              </Typography>
            ))}
          </Box>
        </Box>
      ) : null}

      {own.state === 'failed' && step < 5 ? (
        <Alert severity="warning" sx={{ mt: 2 }}>
          Your application could not be loaded. If you have already applied, your dashboard shows where it stands.
        </Alert>
      ) : null}
      {error ? (
        <Alert severity="error" sx={{ mt: 2 }} data-testid="wizard-error">
          {error}
        </Alert>
      ) : null}

      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1.5, mt: 3, flexWrap: 'wrap' }}>
        {step < 5 ? (
          <Button variant="text" onClick={() => navigate('/dashboard')}>
            Back to Home
          </Button>
        ) : (
          <span />
        )}
        <Box sx={{ display: 'flex', gap: 1.5, ml: 'auto' }}>
          {step < 5 ? (
            <>
              <Button variant="outlined" onClick={() => setStep((s) => Math.max(1, s - 1))} disabled={step === 1 || submitting}>
                Previous
              </Button>
              <Button variant="contained" onClick={next} disabled={submitting}>
                {step === 4 ? (submitting ? 'Submitting...' : 'Submit Application') : 'Next'}
              </Button>
            </>
          ) : (
            <Button variant="contained" onClick={() => navigate('/partnerdashboard')}>
              Go to Partner Portal
            </Button>
          )}
        </Box>
      </Box>
    </OnboardingFrame>
  );
}
