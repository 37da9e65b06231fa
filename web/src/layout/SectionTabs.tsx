import { Paper, Tab, Tabs, type SxProps, type TabProps, type Theme } from '@mui/material';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';

export interface Section<K extends string = string> {
  key: K;
  label: string;
}

/** What one tab carries besides its key and label: a test id, ids for its panel, a style. */
export type SectionTabProps = TabProps & { 'data-testid'?: string };

/** The usual test id of a screen's tab, `tab-<key>`. */
export const sectionTestId = (section: Section): SectionTabProps => ({ 'data-testid': `tab-${section.key}` });

/**
 * A screen's sections as tabs in an outlined bar that scrolls on phones rather than clipping its labels.
 * `children` go inside the bar's frame, below the tabs, for screens whose content shares it.
 */
export function SectionTabs<K extends string>({
  sections,
  value,
  onChange,
  label,
  tabProps,
  sx = { mb: 2, minWidth: 0, maxWidth: '100%' },
  children,
}: {
  sections: readonly Section<K>[];
  value: K;
  onChange: (key: K) => void;
  /** Names the tab list for screen readers. */
  label: string;
  tabProps?: (section: Section<K>) => SectionTabProps;
  sx?: SxProps<Theme>;
  children?: ReactNode;
}) {
  return (
    <Paper variant="outlined" sx={sx}>
      <Tabs value={value} onChange={(_, key: K) => onChange(key)} variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile aria-label={label}>
        {sections.map((section) => (
          <Tab key={section.key} value={section.key} label={section.label} {...tabProps?.(section)} />
        ))}
      </Tabs>
      {children}
    </Paper>
  );
}

/**
 * The section named in the address (`?tab=`), so each one can be linked to; `home` when none or one
 * not offered is named. Choosing `home` leaves the address bare.
 */
export function useUrlSection<K extends string>(sections: readonly Section<K>[], home: K): [K, (key: K) => void] {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab = sections.find((s) => s.key === requested)?.key ?? home;
  const choose = (key: K) => setParams(key === home ? {} : { tab: key }, { replace: true });
  return [tab, choose];
}

/** `tab-<key>`, with the label as written rather than in capitals. */
export const plainSectionTab = (section: Section): SectionTabProps => ({ ...sectionTestId(section), sx: { textTransform: 'none' } });
