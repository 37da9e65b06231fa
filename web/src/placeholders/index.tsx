import { lazy } from 'react';
import type { Screen } from '../layout/screens';

const staticSection = (name: 'ProductsSection' | 'SolutionsSection' | 'DownloadsSection' | 'PartnerSolutions' | 'DistributorSolutions') =>
  lazy(() => import('./StaticSections').then((m) => ({ default: m[name] })));
const ProductsSection = staticSection('ProductsSection');
const SolutionsSection = staticSection('SolutionsSection');
const DownloadsSection = staticSection('DownloadsSection');
const PartnerSolutions = staticSection('PartnerSolutions');
const DistributorSolutions = staticSection('DistributorSolutions');

/** The static product, solution and download sections. */
export const placeholderScreens: Screen[] = [
  { path: '/products', element: <ProductsSection /> },
  { path: '/solutions', element: <SolutionsSection /> },
  { path: '/downloads', element: <DownloadsSection /> },
  { path: '/partner-solutions', element: <PartnerSolutions /> },
  { path: '/distributor-solutions', element: <DistributorSolutions /> },
];
