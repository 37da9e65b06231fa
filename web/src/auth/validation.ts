/** The form rules of spec 000 §4–5, as pure functions the screens and their tests share. */

export const LOGIN_EMAIL_MIN = 5;
export const LOGIN_PASSWORD_MIN = 4;
export const PASSWORD_MIN = 6;

export const FILL_IN_ALL_FIELDS = 'Please fill in all required fields correctly.';

export interface LoginValues {
  email: string;
  password: string;
}

export function validateLogin({ email, password }: LoginValues): Partial<Record<keyof LoginValues, string>> {
  const errors: Partial<Record<keyof LoginValues, string>> = {};
  const trimmed = email.trim();
  if (!trimmed) errors.email = 'email is required';
  else if (trimmed.length < LOGIN_EMAIL_MIN) errors.email = `email must be at least ${LOGIN_EMAIL_MIN} characters`;
  if (!password) errors.password = 'Password is required';
  else if (password.length < LOGIN_PASSWORD_MIN) errors.password = `Password must be at least ${LOGIN_PASSWORD_MIN} characters`;
  return errors;
}

/** SIGN IN is enabled only when no request runs and both fields are long enough. */
export function canSubmitLogin(values: LoginValues, submitting: boolean): boolean {
  return !submitting && values.email.trim().length >= LOGIN_EMAIL_MIN && values.password.length >= LOGIN_PASSWORD_MIN;
}

export interface SignUpValues {
  full_name: string;
  email: string;
  password: string;
  confirmPassword: string;
  rememberMe: boolean;
}

/** text@text.text */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateSignUp(values: SignUpValues): Partial<Record<keyof SignUpValues, string>> {
  const errors: Partial<Record<keyof SignUpValues, string>> = {};
  if (!values.full_name.trim()) errors.full_name = 'Full name is required';
  if (!values.email.trim()) errors.email = 'Email is required';
  else if (!EMAIL_SHAPE.test(values.email.trim())) errors.email = 'Please enter a valid email';
  const passwordError = signUpPasswordError(values.password);
  if (passwordError) errors.password = passwordError;
  if (!values.confirmPassword) errors.confirmPassword = 'Confirm Password is required';
  else if (values.confirmPassword !== values.password) errors.confirmPassword = 'Passwords do not match';
  return errors;
}

export function signUpPasswordError(password: string): string | null {
  if (!password) return 'Password is required';
  if (password.length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters`;
  if (!/[A-Z]/.test(password)) return 'Password must contain at least one uppercase letter';
  if (!/\d/.test(password)) return 'Password must contain at least one number';
  return null;
}

/** Submit is disabled until there are no errors, email and password are filled and the confirmation matches. */
export function canSubmitSignUp(values: SignUpValues): boolean {
  return Object.keys(validateSignUp(values)).length === 0 && Boolean(values.email) && Boolean(values.password) && values.confirmPassword === values.password;
}

export interface ChangePasswordValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** The first rule a change-password form breaks, or null. */
export function validateChangePassword(values: ChangePasswordValues): string | null {
  if (!values.currentPassword || !values.newPassword || !values.confirmPassword) return 'All fields are required';
  if (values.newPassword.length < PASSWORD_MIN) return `New password must be at least ${PASSWORD_MIN} characters long`;
  if (values.newPassword !== values.confirmPassword) return 'New passwords do not match';
  if (values.newPassword === values.currentPassword) return 'New password must be different from current password';
  return null;
}

export type StrengthLabel = 'Weak' | 'Fair' | 'Good' | 'Strong';

export interface PasswordStrength {
  label: StrengthLabel;
  percent: 25 | 50 | 75 | 100;
}

/**
 * Under 6 characters Weak (25%); 6 to 7 Fair (50%); 8 or more with an uppercase letter and a digit
 * Strong (100%); anything else Good (75%).
 */
export function passwordStrength(password: string): PasswordStrength {
  if (password.length < 6) return { label: 'Weak', percent: 25 };
  if (password.length < 8) return { label: 'Fair', percent: 50 };
  if (/[A-Z]/.test(password) && /\d/.test(password)) return { label: 'Strong', percent: 100 };
  return { label: 'Good', percent: 75 };
}

/** The checklist under the new password. */
export function passwordRequirements(newPassword: string, currentPassword: string, confirmPassword: string) {
  return [
    { key: 'length', label: 'At least 6 characters', met: newPassword.length >= PASSWORD_MIN },
    { key: 'upper', label: 'One uppercase letter (recommended)', met: /[A-Z]/.test(newPassword) },
    { key: 'digit', label: 'One number (recommended)', met: /\d/.test(newPassword) },
    { key: 'different', label: 'Different from current password', met: newPassword.length > 0 && newPassword !== currentPassword },
    { key: 'match', label: 'Passwords match', met: newPassword.length > 0 && newPassword === confirmPassword },
  ];
}

export interface RegisterPartnerValues {
  company_name: string;
  email: string;
  password: string;
}

export const ALL_FIELDS_REQUIRED = 'All fields are required.';

export function validateRegisterPartner(values: RegisterPartnerValues): string | null {
  if (!values.company_name.trim() || !values.email.trim() || !values.password) return ALL_FIELDS_REQUIRED;
  if (!EMAIL_SHAPE.test(values.email.trim())) return 'Please enter a valid email';
  if (values.password.length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters`;
  return null;
}

export const PASSWORD_CHANGED_MESSAGE = 'Password changed successfully! You will be redirected shortly.';
export const NO_ACCESS_TOKEN_MESSAGE = 'No access token found';

/** The server's message when it sent one; otherwise the spec's text for the status. */
export function changePasswordFailureMessage(status: number, serverMessage: string | null): string {
  if (serverMessage) return serverMessage;
  switch (status) {
    case 401:
      return 'Current password is incorrect';
    case 400:
      return 'Invalid input. Please check your data.';
    case 500:
      return 'Server error. Please try again later.';
    default:
      return 'Failed to change password. Please try again.';
  }
}
