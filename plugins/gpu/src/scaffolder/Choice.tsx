import { ListItemText } from '@material-ui/core';

/** One choice of a select, offered disabled with the reason when it cannot be made. */
export function Choice(props: { label: string; reason?: string }) {
  return (
    <ListItemText
      primary={props.label}
      secondary={props.reason}
      secondaryTypographyProps={{ style: { whiteSpace: 'normal' } }}
    />
  );
}
