import { MenuItem, TextField, type SxProps, type Theme } from '@mui/material';

/** A choice of a filter; a plain string is its own label. */
export type FilterChoice = string | { value: string; label: string };

const valueOf = (choice: FilterChoice) => (typeof choice === 'string' ? choice : choice.value);
const labelOf = (choice: FilterChoice) => (typeof choice === 'string' ? choice : choice.label);

/** One drop-down filter of a list's toolbar; `allLabel` names the first choice, the empty value that filters nothing. */
export function SelectFilter({
  label,
  value,
  onChange,
  choices,
  allLabel,
  showAllLabel = false,
  fullWidth,
  sx,
  'data-testid': testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  choices: readonly FilterChoice[];
  allLabel?: string;
  /** Writes `allLabel` in the box while nothing is chosen, with the label above it, instead of leaving the box blank. */
  showAllLabel?: boolean;
  fullWidth?: boolean;
  sx?: SxProps<Theme>;
  'data-testid'?: string;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      fullWidth={fullWidth}
      sx={sx}
      slotProps={showAllLabel ? { inputLabel: { shrink: true }, select: { displayEmpty: true } } : undefined}
      data-testid={testId}
    >
      {allLabel !== undefined ? <MenuItem value="">{allLabel}</MenuItem> : null}
      {choices.map((choice) => (
        <MenuItem key={valueOf(choice)} value={valueOf(choice)}>
          {labelOf(choice)}
        </MenuItem>
      ))}
    </TextField>
  );
}
