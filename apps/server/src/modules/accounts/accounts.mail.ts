import { escapeHtml, mailDocument, mailFootnote } from '../../lib/mail-html.js';
import type { MailMessage } from '../../lib/mailer.js';

function layout(title: string, paragraphs: string[], link: { href: string; label: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
  return mailDocument(`<h1 style="font-size:20px">${escapeHtml(title)}</h1>${body}
<p style="margin:24px 0"><a href="${escapeHtml(link.href)}" style="background:#7048e8;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>
<p style="font-size:13px;color:#555">If the button does not work, paste this address into your browser:<br>${escapeHtml(link.href)}</p>
${mailFootnote('Haversack')}`);
}

export function passwordResetMail(to: string, username: string, link: string): MailMessage {
  const lines = [
    `Hello ${username},`,
    'Someone asked to reset the password of your Haversack account. Use the link below within 60 minutes; it works once.',
    'If it was not you, ignore this mail: your password stays as it is.',
  ];
  return {
    to,
    subject: 'Reset your Haversack password',
    text: `${lines.join('\n\n')}\n\n${link}\n\nHaversack\n`,
    html: layout('Reset your password', lines, { href: link, label: 'Reset password' }),
    link,
  };
}

export function verificationMail(to: string, username: string, link: string): MailMessage {
  const lines = [
    `Welcome to Haversack, ${username}!`,
    'Please confirm that this is your email address, so that you can recover your account if you ever forget your password.',
  ];
  return {
    to,
    subject: 'Confirm your email address for Haversack',
    text: `${lines.join('\n\n')}\n\n${link}\n\nHaversack\n`,
    html: layout('Confirm your email address', lines, { href: link, label: 'Confirm email' }),
    link,
  };
}

/** Mailed to the old address when the email changes, with the link that undoes it. */
export function emailChangedMail(
  to: string,
  username: string,
  newEmail: string,
  undoLink: string,
): MailMessage {
  const lines = [
    `Hello ${username},`,
    `The email address of your Haversack account was just changed to ${newEmail}, and every other sign-in was ended.`,
    'If you made this change, there is nothing to do.',
    'If you did not, use the link below within 7 days: it puts this address back, signs everyone out and lets you choose a new password.',
  ];
  return {
    to,
    subject: 'Your Haversack email address was changed',
    text: `${lines.join('\n\n')}\n\n${undoLink}\n\nHaversack\n`,
    html: layout('Your email address was changed', lines, { href: undoLink, label: 'Undo this change' }),
    link: undoLink,
  };
}
