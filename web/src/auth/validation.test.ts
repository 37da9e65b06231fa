import { describe, expect, it } from 'vitest';
import {
  canSubmitLogin,
  canSubmitSignUp,
  passwordStrength,
  validateChangePassword,
  validateLogin,
  validateRegisterPartner,
  validateSignUp,
} from './validation';

const signUp = { full_name: 'Ada Lovelace', email: 'ada@example.com', password: 'Secret1', confirmPassword: 'Secret1', rememberMe: false };

describe('login form', () => {
  it('is enabled only with a trimmed email of 5+ characters and a password of 4+', () => {
    expect(canSubmitLogin({ email: '  a@b  ', password: 'abcd' }, false)).toBe(false);
    expect(canSubmitLogin({ email: 'a@b.c', password: 'abc' }, false)).toBe(false);
    expect(canSubmitLogin({ email: 'a@b.c', password: 'abcd' }, false)).toBe(true);
    expect(canSubmitLogin({ email: 'a@b.c', password: 'abcd' }, true)).toBe(false);
  });

  it('names the field that is missing or short', () => {
    expect(validateLogin({ email: '', password: '' })).toEqual({ email: 'email is required', password: 'Password is required' });
    expect(validateLogin({ email: 'a@b', password: 'abc' })).toEqual({
      email: 'email must be at least 5 characters',
      password: 'Password must be at least 4 characters',
    });
  });
});

describe('sign-up form', () => {
  it('accepts a complete form', () => {
    expect(validateSignUp(signUp)).toEqual({});
    expect(canSubmitSignUp(signUp)).toBe(true);
  });

  it.each([
    [{ email: '' }, 'email', 'Email is required'],
    [{ email: 'ada@example' }, 'email', 'Please enter a valid email'],
    [{ password: '', confirmPassword: '' }, 'password', 'Password is required'],
    [{ password: 'Ab1', confirmPassword: 'Ab1' }, 'password', 'Password must be at least 6 characters'],
    [{ password: 'secret1', confirmPassword: 'secret1' }, 'password', 'Password must contain at least one uppercase letter'],
    [{ password: 'Secrets', confirmPassword: 'Secrets' }, 'password', 'Password must contain at least one number'],
    [{ confirmPassword: '' }, 'confirmPassword', 'Confirm Password is required'],
    [{ confirmPassword: 'Secret2' }, 'confirmPassword', 'Passwords do not match'],
  ])('%o gives %s: %s', (change, field, message) => {
    const values = { ...signUp, ...change };
    expect(validateSignUp(values)[field as keyof typeof signUp]).toBe(message);
    expect(canSubmitSignUp(values)).toBe(false);
  });
});

describe('change password', () => {
  const ok = { currentPassword: 'Old1234', newPassword: 'New12345', confirmPassword: 'New12345' };
  it('checks the rules in the order of the specification', () => {
    expect(validateChangePassword({ ...ok, currentPassword: '' })).toBe('All fields are required');
    expect(validateChangePassword({ ...ok, newPassword: 'Ab1', confirmPassword: 'Ab1' })).toBe('New password must be at least 6 characters long');
    expect(validateChangePassword({ ...ok, confirmPassword: 'Other123' })).toBe('New passwords do not match');
    expect(validateChangePassword({ ...ok, newPassword: 'Old1234', confirmPassword: 'Old1234' })).toBe('New password must be different from current password');
    expect(validateChangePassword(ok)).toBeNull();
  });

  it.each([
    ['abc', 'Weak', 25],
    ['abcdef', 'Fair', 50],
    ['Abcdef1', 'Fair', 50],
    ['abcdefgh', 'Good', 75],
    ['Abcdefgh', 'Good', 75],
    ['abcdefg1', 'Good', 75],
    ['Abcdefg1', 'Strong', 100],
  ])('strength of %s is %s (%i%%)', (password, label, percent) => {
    expect(passwordStrength(password)).toEqual({ label, percent });
  });
});

describe('partner registration', () => {
  it('needs all three fields', () => {
    expect(validateRegisterPartner({ company_name: '', email: 'a@b.co', password: 'Secret1' })).toBe('All fields are required.');
    expect(validateRegisterPartner({ company_name: 'Acme', email: 'a@b.co', password: 'Secret1' })).toBeNull();
  });
});

describe('change password failures', () => {
  it('prefers the server message, then the text for the status', async () => {
    const { changePasswordFailureMessage } = await import('./validation');
    expect(changePasswordFailureMessage(401, 'Current password is incorrect')).toBe('Current password is incorrect');
    expect(changePasswordFailureMessage(401, null)).toBe('Current password is incorrect');
    expect(changePasswordFailureMessage(400, null)).toBe('Invalid input. Please check your data.');
    expect(changePasswordFailureMessage(500, null)).toBe('Server error. Please try again later.');
    expect(changePasswordFailureMessage(418, null)).toBe('Failed to change password. Please try again.');
  });
});
