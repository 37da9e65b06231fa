import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, TextField, type SxProps, type Theme } from '@mui/material';

/**
 * A list's search box, with the magnifier every list shows before the text. Most boxes show only a
 * placeholder, so `inputLabel` names the input for screen readers; a box with a visible `label` needs none.
 */
export function SearchField({
  value,
  onChange,
  placeholder,
  label,
  inputLabel,
  fullWidth,
  sx,
  'aria-label': ariaLabel,
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  label?: string;
  inputLabel?: string;
  fullWidth?: boolean;
  sx?: SxProps<Theme>;
  'aria-label'?: string;
}) {
  return (
    <TextField
      size="small"
      label={label}
      placeholder={placeholder}
      aria-label={ariaLabel}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      fullWidth={fullWidth}
      sx={sx}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
        htmlInput: inputLabel === undefined ? undefined : { 'aria-label': inputLabel },
      }}
    />
  );
}
