import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import { mayDownload, resources, RESOURCE_MESSAGES, type ResourceEvent } from './resources';

const spec = deciderSpec(resources);
const file = { name: 'a.pdf', originalName: 'HX-M2424 datasheet.pdf', type: 'pdf' };
const publish = {
  type: 'PublishResource' as const,
  resourceId: 'r-1',
  title: ' HX-M2424 datasheet ',
  category: 'Datasheet',
  description: ' Specs ',
  roles: ['partner', ' distributor ', 'partner'],
  file,
};
const published: ResourceEvent = {
  type: 'ResourcePublished.v1',
  data: {
    resourceId: 'r-1',
    title: 'HX-M2424 datasheet',
    category: 'Datasheet',
    description: 'Specs',
    roles: ['partner', 'distributor'],
    file,
    publishedBy: 'actor-1',
  },
};

describe('resources', () => {
  it('an administrator publishes a document for the roles chosen', () => spec.given([]).when(publish).then([published]));
  it('publishing again changes nothing', () => spec.given([published]).when(publish).then([]));
  it('refuses anyone but administrators', () =>
    spec.given([]).when(publish, { actorRole: 'support' }).thenThrows(RESOURCE_MESSAGES.onlyAdmins, 'INSUFFICIENT_PERMISSIONS'));
  it('refuses a blank title, an unknown category, no roles, an unknown role and no file', () => {
    spec
      .given([])
      .when({ ...publish, title: ' ' })
      .thenThrows(RESOURCE_MESSAGES.titleRequired);
    spec
      .given([])
      .when({ ...publish, category: 'Poster' })
      .thenThrows(RESOURCE_MESSAGES.invalidCategory);
    spec
      .given([])
      .when({ ...publish, roles: [' '] })
      .thenThrows(RESOURCE_MESSAGES.rolesRequired);
    spec
      .given([])
      .when({ ...publish, roles: ['guest'] })
      .thenThrows(RESOURCE_MESSAGES.invalidRole);
    spec
      .given([])
      .when({ ...publish, file: null })
      .thenThrows(RESOURCE_MESSAGES.fileRequired);
  });
  it('removes a resource once; an unknown one is not found', () => {
    spec
      .given([published])
      .when({ type: 'RemoveResource' })
      .then([{ type: 'ResourceRemoved.v1', data: { resourceId: 'r-1' } }]);
    spec
      .given([published, { type: 'ResourceRemoved.v1', data: { resourceId: 'r-1' } }])
      .when({ type: 'RemoveResource' })
      .then([]);
    spec.given([]).when({ type: 'RemoveResource' }).thenThrows(RESOURCE_MESSAGES.notFound, 'NOT_FOUND');
  });
  it('lets the chosen roles and administrators download', () => {
    expect(mayDownload('partner', ['partner'])).toBe(true);
    expect(mayDownload('distributor', ['partner'])).toBe(false);
    expect(mayDownload('admin', [])).toBe(true);
  });
});
