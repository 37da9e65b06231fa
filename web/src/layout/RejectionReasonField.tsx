import { Box, TextField, type SxProps, type Theme } from '@mui/material';

/** The reason for a rejection, which the partner reads: required, cut at `max` characters, with a counter. */
export function RejectionReasonField({
  name,
  value,
  onChange,
  max,
  sx,
}: {
  name: string;
  value: string;
  onChange: (value: string) => void;
  max: number;
  sx?: SxProps<Theme>;
}) {
  return (
    <TextField
      label="Reason for rejection"
      name={name}
      value={value}
      onChange={(event) => onChange(event.target.value.slice(0, max))}
      required
      multiline
      minRows={4}
      fullWidth
      sx={sx}
      slotProps={{ htmlInput: { maxLength: max } }}
      helperText={
        <Box component="span" sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
          <span>The reason is shared with the partner.</span>
          <span data-testid="reason-counter">
            {value.length}/{max}
          </span>
        </Box>
      }
    />
  );
}
