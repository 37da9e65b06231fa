/** Screens owned by later work: each resolves now, with its title and an honest "coming soon". */
export interface PlaceholderRoute {
  path: string;
  title: string;
  subtitle?: string;
  description?: string;
  /** Checked with the shared route rules. */
  guarded?: boolean;
}

export const PLACEHOLDER_ROUTES: readonly PlaceholderRoute[] = [
  { path: '/supportcenter', title: 'Support Center', guarded: true },
  { path: '/comprehensive-support', title: 'Comprehensive Support' },
  { path: '/partnership-governance', title: 'Partnership Governance' },
  { path: '/distributor/partnership-governance', title: 'Partnership Governance' },
  { path: '/distributor/inventory', title: 'Inventory' },
  { path: '/live-chat', title: 'Live Chat' },
  { path: '/learn-earn', title: 'Learn & Earn' },
  { path: '/training-videos', title: 'Training Videos' },
  { path: '/tech-gallery', title: 'Tech Gallery' },
  { path: '/faqs', title: 'FAQs' },
  { path: '/rma', title: 'RMA' },
  { path: '/warranty-check', title: 'Warranty Check' },
];

