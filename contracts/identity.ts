import { z } from 'zod';
import { ROLES } from '../domain/access';
import { MFA_REQUIREMENTS } from '../domain/settings/settings';
import { asOfRecordAnswer, commandAnswer, createdAnswers, listAnswer, recordAnswer, statusHistoryAnswer } from './answers';

/**
 * Identity: signing in (password, second factors, single sign-on), registering, and the administrators'
 * user list; every request body and answer of their routes.
 *
 * Routes (all under /api):
 * - POST   /auth/login                    `loginBody` → `signedInAnswer` or `mfaRequiredAnswer`
 * - POST   /auth/refresh, /user/token/refresh/   `refreshBody` → `tokensAnswer`
 * - GET    /auth/me                       the signed-in user — `meAnswer`
 * - POST   /auth/logout                   → `messageAnswer`
 * - POST   /auth/change-password          `changePasswordBody` → `messageAnswer`
 * - POST   /user/register/                `registerBody` → 201 `registeredAnswer` (202 `acceptedAnswer` with `onboardingToken`)
 * - GET    /users                         admins: `userListAnswer` (rows: `userSchema`)
 * - GET    /users/:id                     admins: `userAnswer`, or with `asOf` the user as it was — `asOfRecordAnswer`
 * - GET    /users/:id/history             admins: status changes — `statusHistoryAnswer`
 * - POST   /users                         admins: `userCreateBody` → `userCreatedAnswers`
 * - PUT    /users/:id                     admins: `userEditBody` → `userAnswer`
 * - POST   /users/bulk-status             admins: `bulkStatusBody` → `bulkStatusAnswer`
 * - POST   /users/:id/erase               admins: `eraseBody` → `idAnswer`
 * - DELETE /users/:id                     admins: → `idAnswer`
 * - /auth/mfa/…, /auth/oidc/…, /identity-providers/…: second factors and single sign-on (below).
 * Moments are ISO 8601 strings.
 */

// ---- shared answers ----

/** A command's success naming the record it acted on. */
export const idAnswer = commandAnswer(z.object({ id: z.string() }));
export type IdAnswer = z.infer<typeof idAnswer>;

/** A user, ticket or team member as it was at `asOf`, and a user's status history: the shapes every record shares. */
export { asOfRecordAnswer, statusHistoryAnswer };

// ---- users ----

/** The user as the API answers it: the specification's field names, effectivePermissions normalised. */
export const userSchema = z.object({
  id: z.string(),
  full_name: z.string(),
  email: z.string(),
  role: z.string(),
  is_active: z.boolean(),
  status: z.enum(['active', 'inactive']),
  company_name: z.string().nullable(),
  company: z.object({ company_name: z.string() }).nullable(),
  permissions: z.array(z.string()),
  effectivePermissions: z.array(z.string()),
  parent_user_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type UserView = z.infer<typeof userSchema>;

export const userListAnswer = listAnswer('users', userSchema);
export const userAnswer = recordAnswer(userSchema);
export const userCreatedAnswers = createdAnswers(userSchema);
export const bulkStatusAnswer = commandAnswer(z.object({ changed: z.array(z.string()), unchanged: z.array(z.string()), users: z.array(userSchema) }));
export type BulkStatusAnswer = z.infer<typeof bulkStatusAnswer>;

/** The Add User and Edit User messages of the specification. */
const fullName = z.string({ error: 'Full name is required.' }).trim().min(1, 'Full name is required.').max(120, 'Full name must be at most 120 characters.');
const userEmail = z.email({ error: (i) => (i.input === undefined || i.input === '' ? 'Email is required.' : 'Email is invalid.') }).max(254);
const userPassword = z.string({ error: 'Password is required.' }).min(1, 'Password is required.').min(6, 'Password must be at least 6 characters.').max(200);
export const userRole = z.enum(ROLES, {
  error: (i) => (i.input === undefined || i.input === '' ? 'Role is required.' : `Role must be one of: ${ROLES.join(', ')}.`),
});
const userPermissions = z.array(z.string().max(60)).max(60);
const companyName = z.string().trim().max(200).nullable().optional();

export const userCreateBody = z
  .object({
    full_name: fullName,
    email: userEmail,
    password: userPassword,
    role: userRole,
    is_active: z.boolean().optional(),
    permissions: userPermissions.optional(),
    company_name: companyName,
  })
  .strict()
  .meta({
    example: {
      full_name: 'Dana Okafor',
      email: 'dana.okafor@partnerhub.test',
      password: 'Secret123',
      role: 'support',
      is_active: true,
      permissions: ['Support.Read'],
      company_name: null,
    },
  });

/** The fields of an edit (the route ignores the read-only fields react-admin sends back: see USER_READ_ONLY_FIELDS). */
export const userEditFields = {
  id: z.uuid().optional(),
  full_name: fullName,
  email: userEmail,
  role: userRole.optional(),
  is_active: z.boolean().optional(),
  permissions: userPermissions.optional(),
  company_name: companyName,
  password: z.union([z.literal(''), userPassword]).optional(),
};

/** What a user record carries that an edit cannot change (the answer of GET /users/:id). */
export const USER_READ_ONLY_FIELDS = ['status', 'company', 'effectivePermissions', 'parent_user_id', 'created_at', 'updated_at'];

// ---- signing in and registering ----

const signInEmail = z
  .string({ error: (i) => (i.input === undefined ? 'Email is required.' : 'Email must be text.') })
  .trim()
  .max(254);

export const loginBody = z
  .object({
    email: signInEmail.min(5, 'email must be at least 5 characters'),
    password: z
      .string({ error: (i) => (i.input === undefined ? 'Password is required' : 'Password must be text.') })
      .min(4, 'Password must be at least 4 characters')
      .max(200),
  })
  .strict()
  .meta({ example: { email: 'partner@partnerhub.test', password: 'Demo2026!' } });

export const refreshBody = z
  .object({ refreshToken: z.string().min(1).max(200).optional(), refresh: z.string().min(1).max(200).optional() })
  .strict()
  .refine((b) => b.refreshToken || b.refresh, { message: 'refreshToken is required.', path: ['refreshToken'] });

export const changePasswordBody = z
  .object({
    currentPassword: z.string({ error: 'All fields are required' }).min(1, 'All fields are required').max(200),
    newPassword: z.string({ error: 'All fields are required' }).min(6, 'New password must be at least 6 characters long').max(200),
  })
  .strict()
  .meta({ example: { currentPassword: 'Demo2026!', newPassword: 'Another2026!' } });

/** Sign-up rules of the specification (a new partner, an invited team member), enforced here as well as in the form. */
export const newPasswordRule = z
  .string({ error: (i) => (i.input === undefined ? 'Password is required' : 'Password must be text.') })
  .min(6, 'Password must be at least 6 characters')
  .max(200)
  .regex(/[A-Z]/, 'Password must contain at least one uppercase letter')
  .regex(/\d/, 'Password must contain at least one number');

export const registerBody = z
  .object({
    email: z.email({ error: (i) => (i.input === undefined ? 'Email is required' : 'Please enter a valid email') }).max(254),
    password: newPasswordRule,
    full_name: z.string().trim().min(1).max(120).optional(),
    company_name: z.string().trim().min(1, 'Company name is required').max(200).optional(),
    role: z.literal('partner', 'Only partners can register themselves.').optional(),
    is_active: z.literal(false, 'A new partner account starts inactive until approved.').optional(),
  })
  .strict()
  .meta({ example: { email: 'ines.moreau@fjord-networks.example', password: 'Secret123', full_name: 'Ines Moreau', company_name: 'Fjord Networks' } });

/** A registration: the new account (just its id while the read model is behind) and the token its onboarding questionnaire needs. */
export const registeredAnswer = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.union([userSchema, z.object({ id: z.string() })]),
  onboardingToken: z.string(),
});
export type RegisteredAnswer = z.infer<typeof registeredAnswer>;

const tokens = { accessToken: z.string(), refreshToken: z.string(), access: z.string(), refresh: z.string() };
export const tokensAnswer = z.object({ success: z.literal(true), ...tokens });

export const meAnswer = z.object({
  success: z.literal(true),
  user: userSchema,
  data: z.object({ user: userSchema }),
  role: z.string(),
  permissions: z.array(z.string()),
  effectivePermissions: z.array(z.string()),
});

const code6 = z
  .string({ error: (i) => (i.input === undefined ? 'Code is required.' : 'Code must be text.') })
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.');

/** Returned by sign-in (and by the SSO hand-off) when a second factor is still to come: no tokens yet. */
export const mfaRequiredAnswer = z.object({
  success: z.literal(true),
  mfa_required: z.literal(true),
  message: z.string(),
  /** Presented with the factor to `POST /api/auth/mfa/challenge`; good for a few minutes, once. */
  challenge: z.string(),
  expires_in: z.number().int(),
  /** The factors this person can answer with; empty with `enrolment_required`. */
  methods: z.array(z.enum(['totp', 'recovery_code', 'passkey'])),
  /** A second factor is required and this person has none: set one up with the challenge first. */
  enrolment_required: z.boolean(),
});
export type MfaRequiredAnswer = z.infer<typeof mfaRequiredAnswer>;

/** What a successful sign-in answers: the tokens and the signed-in user. */
export const signedInAnswer = z.object({ success: z.literal(true), message: z.string(), ...tokens, user: userSchema });

export const challengeBody = z
  .object({
    challenge: z.string({ error: 'challenge is required.' }).min(20, 'challenge is not valid.').max(200, 'challenge is not valid.'),
    code: code6.optional(),
    recovery_code: z
      .string({ error: 'Recovery code must be text.' })
      .trim()
      .regex(/^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/, 'A recovery code looks like ABCDE-12345.')
      .optional(),
    /** The browser's answer to the passkey options (`navigator.credentials.get`, as JSON). */
    passkey: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .refine((b) => [b.code, b.recovery_code, b.passkey].filter((x) => x !== undefined).length === 1, {
    message: 'Answer with exactly one of code, recovery_code or passkey.',
    path: ['code'],
  })
  .meta({ example: { challenge: 'k3J9c0mPq8vR2sT5uW7xY1zA4bC6dE8f', code: '123456' } });

export const challengeOnlyBody = z
  .object({ challenge: z.string({ error: 'challenge is required.' }).min(20, 'challenge is not valid.').max(200, 'challenge is not valid.') })
  .strict()
  .meta({ example: { challenge: 'k3J9c0mPq8vR2sT5uW7xY1zA4bC6dE8f' } });

/** Enrolment while signed in needs no body; after the password (a required factor not yet set up) it carries the challenge. */
export const enrolBody = z
  .object({ challenge: z.string().min(20, 'challenge is not valid.').max(200, 'challenge is not valid.').optional() })
  .strict()
  .meta({ example: {} });

export const totpEnrolAnswer = z.object({
  success: z.literal(true),
  data: z.object({
    /** The `otpauth://totp/…` URI an authenticator app reads. */
    otpauth_uri: z.string(),
    /** The same URI as a QR code: a PNG data URL. */
    qr_image: z.string(),
    /** The secret in base32, for typing in by hand. */
    secret: z.string(),
  }),
});
export type TotpEnrolAnswer = z.infer<typeof totpEnrolAnswer>;

export const totpConfirmBody = z
  .object({ code: code6, challenge: z.string().min(20, 'challenge is not valid.').max(200, 'challenge is not valid.').optional() })
  .strict()
  .meta({ example: { code: '123456' } });

export const totpConfirmAnswer = z
  .object({
    success: z.literal(true),
    message: z.string(),
    /** Shown once: ten single-use codes for when the authenticator app is not at hand. */
    data: z.object({ recovery_codes: z.array(z.string()) }),
  })
  .loose();
export type TotpConfirmAnswer = z.infer<typeof totpConfirmAnswer>;

export const factorView = z.object({ id: z.string(), name: z.string(), created_at: z.string(), last_used_at: z.string().nullable() });

export const secondFactors = z.object({
  totp: factorView.nullable(),
  recovery_codes_left: z.number().int(),
  passkeys: z.array(factorView),
  /** Whether the security policy requires this person to have a second factor. */
  required: z.boolean(),
});
export type SecondFactors = z.infer<typeof secondFactors>;
export const secondFactorsAnswer = z.object({ success: z.literal(true), data: secondFactors });

export const passkeyOptionsAnswer = z.object({ success: z.literal(true), data: z.record(z.string(), z.unknown()) });

export const passkeyRegisterBody = z
  .object({
    name: z.string({ error: 'Name is required.' }).trim().min(1, 'Give the passkey a name.').max(80, 'A passkey name may have at most 80 characters.'),
    /** The browser's answer to the registration options (`navigator.credentials.create`, as JSON). */
    response: z.record(z.string(), z.unknown(), { error: 'response is required.' }),
  })
  .strict()
  .meta({ example: { name: 'Laptop', response: { id: 'credential-id', rawId: 'credential-id', type: 'public-key', response: {} } } });

export const factorIdParam = z.object({ factorId: z.uuid('There is no such second factor.') }).strict();

export const resetFactorsBody = z
  .object({ reason: z.string({ error: 'A reason is required.' }).trim().min(1, 'A reason is required to reset second factors.').max(500) })
  .strict()
  .meta({ example: { reason: 'Lost phone; identity checked by phone call' } });

export const messageAnswer = z.object({ success: z.literal(true), message: z.string() });
export type MessageAnswer = z.infer<typeof messageAnswer>;

// ---- security policy (System Settings) ----

export const securityPolicy = z.object({
  mfa_required_for: z.enum(MFA_REQUIREMENTS),
  sso_required_organisations: z.array(z.string()),
});
export type SecurityPolicyView = z.infer<typeof securityPolicy>;
export const securityPolicyBody = z
  .object({
    mfa_required_for: z.enum(MFA_REQUIREMENTS, { error: 'Choose nobody, administrators or everyone.' }),
    sso_required_organisations: z.array(z.uuid('Organisations are named by their id.')).max(500).optional(),
  })
  .strict()
  .meta({ example: { mfa_required_for: 'administrators', sso_required_organisations: [] } });
export const securityPolicyAnswer = z.object({ success: z.literal(true), message: z.string().optional(), data: securityPolicy });
export type SecurityPolicyAnswer = z.infer<typeof securityPolicyAnswer>;

// ---- identity providers ----

export const identityProvider = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  allowed_domains: z.array(z.string()),
  organisation_id: z.string().nullable(),
  role: z.string(),
  domain_organisations: z.record(z.string(), z.string()),
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type IdentityProvider = z.infer<typeof identityProvider>;

const providerFields = {
  slug: z.string({ error: 'Short name is required.' }).trim().max(40, 'The short name may have at most 40 characters.'),
  name: z.string({ error: 'Name is required.' }).trim().max(80, 'Name may have at most 80 characters.'),
  issuer: z.string({ error: 'Issuer is required.' }).trim().max(500),
  client_id: z.string({ error: 'Client id is required.' }).trim().max(200),
  allowed_domains: z.array(z.string().max(253), { error: 'Allowed domains must be a list.' }).max(50),
  organisation_id: z.uuid('The organisation is named by its id.').nullable().optional(),
  role: z.string({ error: 'Role is required.' }).max(40),
  domain_organisations: z.record(z.string().max(253), z.uuid('Organisations are named by their id.')).optional(),
  active: z.boolean().optional(),
};

export const providerCreateBody = z
  .object({ ...providerFields, client_secret: z.string({ error: 'Client secret is required.' }).min(1, 'Client secret is required.').max(500) })
  .strict()
  .meta({
    example: {
      slug: 'acme-sso',
      name: 'Acme Identity',
      issuer: 'https://login.acme.example',
      client_id: 'partnerhub',
      client_secret: 'a-long-client-secret',
      allowed_domains: ['acme.example'],
      organisation_id: null,
      role: 'partner',
      domain_organisations: {},
      active: true,
    },
  });

export const providerUpdateBody = z
  .object({ ...providerFields, client_secret: z.string().max(500).optional() })
  .strict()
  .meta({
    example: {
      slug: 'acme-sso',
      name: 'Acme Identity',
      issuer: 'https://login.acme.example',
      client_id: 'partnerhub',
      allowed_domains: ['acme.example'],
      role: 'partner',
      active: true,
    },
  });

export const providerIdParam = z.object({ id: z.uuid('There is no such identity provider.') }).strict();
export const providerSlugParam = z.object({ provider: z.string().regex(/^[a-z0-9-]{2,40}$/, 'There is no such identity provider.') }).strict();

export const providerAnswer = identityProvider.extend({ success: z.literal(true), message: z.string().optional(), data: identityProvider });
export type ProviderAnswer = z.infer<typeof providerAnswer>;
export const providersAnswer = z.object({
  success: z.literal(true),
  data: z.object({ identity_providers: z.array(identityProvider), total: z.number().int() }),
});
export type ProvidersAnswer = z.infer<typeof providersAnswer>;

/** The sign-in page's list: only what a signed-out visitor needs. */
export const publicProvider = z.object({ slug: z.string(), name: z.string(), start_url: z.string() });
export type PublicProvider = z.infer<typeof publicProvider>;
export const publicProvidersAnswer = z.object({ success: z.literal(true), data: z.object({ providers: z.array(publicProvider) }) });
export type PublicProvidersAnswer = z.infer<typeof publicProvidersAnswer>;

export const oidcStartQuery = z
  .object({
    return_to: z
      .string()
      .regex(/^\/[^/\\]/, 'return_to must be a path of this portal.')
      .max(500)
      .optional(),
  })
  .strict();
export const oidcCallbackQuery = z
  .object({
    code: z.string().max(2000).optional(),
    state: z.string().max(200).optional(),
    iss: z.string().max(500).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(1000).optional(),
    session_state: z.string().max(500).optional(),
  })
  .strict();

/** The browser trades the one-time ticket the callback put in its address for tokens (or a second-factor challenge). */
export const oidcCompleteBody = z
  .object({ ticket: z.string({ error: 'ticket is required.' }).min(20, 'The sign-in link is not valid.').max(200, 'The sign-in link is not valid.') })
  .strict()
  .meta({ example: { ticket: 'Zx8k3J9c0mPq8vR2sT5uW7xY1zA4bC6dE8f' } });

/** The single sign-on steps answer with a redirect: no body, the Location header says where the browser goes next. */
export const redirectAnswer = z.null().describe('No body: the Location header names where the browser goes next.');
