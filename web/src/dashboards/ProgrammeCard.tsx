import type { ProgrammeCard } from '@contracts/programme';
import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import { Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { usePrincipal } from '../access/usePrincipal';
import { formatDate } from '../formatting';
import { ownStanding } from '../programme/programmeApi';
import { StatCard } from '../layout/StatCard';

/** The card's facts from the standing, for an answer that does not carry the card itself. */
function useCard(given: ProgrammeCard | null | undefined): ProgrammeCard | null {
  const [fetched, setFetched] = useState<ProgrammeCard | null>(null);
  // Only a partner's own users have a standing of their own; anyone else would only meet a refusal.
  const own = usePrincipal()?.role.startsWith('partner') ?? false;
  useEffect(() => {
    if (given !== undefined || !own) return;
    let live = true;
    ownStanding().then(
      (s) =>
        live &&
        setFetched({ tier: s.tier, next_tier: s.next_tier, first_missing: s.missing[0] ?? null, at_risk: s.at_risk, next_evaluation: s.next_evaluation }),
      () => live && setFetched(null),
    );
    return () => {
      live = false;
    };
  }, [given, own]);
  return given === undefined ? fetched : given;
}

/** The partner's programme tier and the first thing the next tier still needs. */
export function ProgrammeTierCard({ card: given, to }: { card: ProgrammeCard | null | undefined; to: string }) {
  const card = useCard(given);
  if (!card) return null;
  const note = card.at_risk ? (
    <Typography variant="caption" color="warning.main" sx={{ fontWeight: 600 }}>
      At risk: see what is missing before {formatDate(card.next_evaluation)}
    </Typography>
  ) : card.first_missing ? (
    <Typography variant="caption" color="text.secondary" data-testid="tier-card-missing">
      {card.next_tier ? `${card.next_tier.name}: ` : ''}
      {card.first_missing.sentence}
    </Typography>
  ) : card.next_tier ? (
    `Every ${card.next_tier.name} requirement met: promoted at the next evaluation`
  ) : (
    'Top tier of the programme'
  );
  return <StatCard label="Programme Tier" value={card.tier.name} note={note} icon={<WorkspacePremiumIcon />} to={to} />;
}
