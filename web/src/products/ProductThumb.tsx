import RouterIcon from '@mui/icons-material/Router';
import { Box } from '@mui/material';
import { useState } from 'react';

/** A product's picture (served from the uploads area), or a neutral device icon without one. */
export function ProductThumb({ src, name, size = 48 }: { src: string | null | undefined; name: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  return (
    <Box
      sx={{
        width: size,
        height: size,
        flex: `0 0 ${size}px`,
        borderRadius: 1,
        border: 1,
        borderColor: 'divider',
        bgcolor: '#f4f6f8',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        overflow: 'hidden',
      }}
    >
      {src && !failed ? (
        <img
          src={src}
          alt={name}
          width={size}
          height={size}
          loading="lazy"
          style={{ objectFit: 'contain', width: '100%', height: '100%' }}
          onError={() => setFailed(true)}
        />
      ) : (
        <RouterIcon color="disabled" sx={{ fontSize: size * 0.55 }} aria-label={`${name}: no picture`} />
      )}
    </Box>
  );
}
