import { Placeholder } from '../placeholders/Placeholder';

/** /learn-earn, /training-videos and /tech-gallery: what the portal does not have, said plainly. */
const LEARNING_PAGES: Record<string, { title: string; absent: string }> = {
  '/learn-earn': { title: 'Learn & Earn', absent: 'PartnerHub has no training programme with rewards.' },
  '/training-videos': { title: 'Training Videos', absent: 'PartnerHub does not host training videos.' },
  '/tech-gallery': { title: 'Tech Gallery', absent: 'PartnerHub has no gallery of installations.' },
};

const WHERE_TO_GO = [
  { label: 'Open Downloads', to: '/supportcenter?tab=downloads' },
  { label: 'Read the FAQs', to: '/faqs' },
  { label: 'Contact support', to: '/supportcenter?tab=contact' },
];

export default function LearningPage({ path }: { path: string }) {
  const page = LEARNING_PAGES[path];
  return (
    <Placeholder
      title={page.title}
      subtitle={page.absent}
      description="What the portal has: product datasheets, manuals, firmware notes and price lists in the Downloads library, and the support team for anything they do not answer."
      links={WHERE_TO_GO}
    />
  );
}
