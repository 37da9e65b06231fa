import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { IconButton, InputAdornment, TextField, type TextFieldProps } from '@mui/material';
import { useState } from 'react';

/** A password input with a show/hide toggle. */
export function PasswordField(props: TextFieldProps & { toggleLabel?: string }) {
  const { toggleLabel = 'password', slotProps, ...rest } = props;
  const [shown, setShown] = useState(false);
  return (
    <TextField
      {...rest}
      type={shown ? 'text' : 'password'}
      slotProps={{
        ...slotProps,
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={shown ? `Hide ${toggleLabel}` : `Show ${toggleLabel}`}
                onClick={() => setShown((value) => !value)}
                onMouseDown={(event) => event.preventDefault()}
                edge="end"
                size="small"
              >
                {shown ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
