import { SERVICE_LEVEL_HOURS } from '@domain/tickets/tickets';
import { DEFAULT_WARRANTY_MONTHS, WARRANTY_MONTHS_BY_CATEGORY } from '@domain/warranty/warranty';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Accordion, AccordionDetails, AccordionSummary, Box, Button, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { PageTitle } from '../layout/PageTitle';

const warranty = Object.entries(WARRANTY_MONTHS_BY_CATEGORY)
  .map(([category, months]) => `${category}: ${months} months`)
  .join('; ');

/** The answers come from the portal's own rules, so they stay true when the rules change. */
const FAQS: Array<{ question: string; answer: string }> = [
  {
    question: 'How do I open a support case?',
    answer:
      'Open the Support Center, go to My Cases and choose Create Ticket. Give a title and a description; you can add up to 5 attachments (PDF, DOC, DOCX, JPG or PNG).',
  },
  {
    question: 'How fast will support answer?',
    answer: `A case without a due date is due by its priority: Critical within ${SERVICE_LEVEL_HOURS.Critical} hours, High within ${SERVICE_LEVEL_HOURS.High} hours, Medium within ${SERVICE_LEVEL_HOURS.Medium / 24} days, Low within ${SERVICE_LEVEL_HOURS.Low / 24} days. Support staff are told when a case passes its due time.`,
  },
  {
    question: 'Where do I find the serial number of a unit?',
    answer: 'On the unit, and on the tracking page of its order once the order has shipped (Orders → Track).',
  },
  {
    question: 'How long is the warranty?',
    answer: `From delivery: ${warranty}; other products ${DEFAULT_WARRANTY_MONTHS} months. The Warranty/RMA tab shows the warranty end of any unit of yours.`,
  },
  {
    question: 'How do I return a faulty unit (RMA)?',
    answer:
      'Check its serial number in the Warranty/RMA tab of the Support Center. If it is under warranty, describe the fault and choose Request RMA: a case linked to the order and unit is opened for support.',
  },
  {
    question: 'Where are datasheets, firmware notes and price lists?',
    answer: 'In the Downloads tab of the Support Center. You see the documents published for your role; search by title or category.',
  },
  {
    question: 'Who can see my support cases?',
    answer: 'Your organisation and the support team. Support staff may keep internal notes on a case; those are never shown or e-mailed to customers.',
  },
];

/** /faqs: answers to the questions partners ask most, written from the portal's rules. */
export default function Faqs() {
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 900 }}>
      <PageTitle title="FAQs" subtitle="Answers to the questions partners ask most." />
      {FAQS.map((faq) => (
        <Accordion key={faq.question} disableGutters>
          <AccordionSummary expandIcon={<ExpandMoreIcon />}>
            <Typography sx={{ fontWeight: 600 }}>{faq.question}</Typography>
          </AccordionSummary>
          <AccordionDetails>
            <Typography variant="body2">{faq.answer}</Typography>
          </AccordionDetails>
        </Accordion>
      ))}
      <Button sx={{ mt: 2 }} variant="contained" component={RouterLink} to="/supportcenter">
        Go to the Support Center
      </Button>
    </Box>
  );
}
