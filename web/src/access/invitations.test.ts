import { describe, expect, it } from 'vitest';
import { cataloguePointer, orderManagementSubtitle } from './invitations';

describe('texts that invite an action', () => {
  it('invite to the catalogue only those who may browse it', () => {
    expect(orderManagementSubtitle(true)).toBe('Track orders and browse our product catalog.');
    expect(orderManagementSubtitle(false)).not.toMatch(/browse/i);
    expect(cataloguePointer(true)).toContain('in the Catalogue');
    expect(cataloguePointer(false)).toContain('ask your administrator');
  });
});
