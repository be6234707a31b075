//! Counting the messages between the gateway and the providers.

use std::fmt;

/// One kind of message between the gateway and a provider.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Message {
    /// Provider → gateway: periodic utilisation report (least-loaded policy).
    UtilisationReport,
    /// Gateway → provider: "send me your free time slots" (`ask` policies).
    SlotRequest,
    /// Provider → gateway: free time slots, answering a [`Message::SlotRequest`].
    SlotReply,
    /// Provider → gateway: free time slots published unasked (`partial`
    /// policies, and the refresh after a refused reservation).
    SlotPublication,
    /// Gateway → provider: phase one of a reservation.
    ReservationRequest,
    /// Provider → gateway: hold granted or refused.
    ReservationReply,
    /// Gateway → provider: commit a hold.
    Commit,
    /// Gateway → provider: abort a hold.
    Abort,
    /// Gateway → provider: a grid job to run.
    JobSubmission,
}

impl Message {
    /// Every kind, in declaration order.
    pub const ALL: [Message; 9] = [
        Message::UtilisationReport,
        Message::SlotRequest,
        Message::SlotReply,
        Message::SlotPublication,
        Message::ReservationRequest,
        Message::ReservationReply,
        Message::Commit,
        Message::Abort,
        Message::JobSubmission,
    ];

    /// A short lower-case name for tables and CSV columns.
    pub fn name(self) -> &'static str {
        match self {
            Message::UtilisationReport => "utilisation-report",
            Message::SlotRequest => "slot-request",
            Message::SlotReply => "slot-reply",
            Message::SlotPublication => "slot-publication",
            Message::ReservationRequest => "reservation-request",
            Message::ReservationReply => "reservation-reply",
            Message::Commit => "commit",
            Message::Abort => "abort",
            Message::JobSubmission => "job-submission",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A count of every message sent between the gateway and its providers, by kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MessageCounter {
    counts: [u64; Message::ALL.len()],
}

impl MessageCounter {
    /// No message yet.
    pub fn new() -> MessageCounter {
        MessageCounter::default()
    }

    /// Records one message of kind `m`.
    pub fn record(&mut self, m: Message) {
        self.counts[m.index()] += 1;
    }

    /// Messages of kind `m` so far.
    pub fn count(&self, m: Message) -> u64 {
        self.counts[m.index()]
    }

    /// All messages so far.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// `(kind, count)` for every kind, in [`Message::ALL`] order.
    pub fn by_kind(&self) -> impl Iterator<Item = (Message, u64)> + '_ {
        Message::ALL.iter().map(|&m| (m, self.count(m)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_by_kind_and_in_total() {
        let mut c = MessageCounter::new();
        assert_eq!(c.total(), 0);
        for m in [
            Message::SlotRequest,
            Message::SlotReply,
            Message::SlotRequest,
            Message::Commit,
        ] {
            c.record(m);
        }
        assert_eq!(c.count(Message::SlotRequest), 2);
        assert_eq!(c.count(Message::SlotReply), 1);
        assert_eq!(c.count(Message::Commit), 1);
        assert_eq!(c.count(Message::Abort), 0);
        assert_eq!(c.total(), 4);
        assert_eq!(c.by_kind().map(|(_, n)| n).sum::<u64>(), c.total());
    }

    #[test]
    fn every_kind_has_its_own_slot_and_name() {
        let mut c = MessageCounter::new();
        for (i, &m) in Message::ALL.iter().enumerate() {
            for _ in 0..=i {
                c.record(m);
            }
        }
        for (i, (m, n)) in c.by_kind().enumerate() {
            assert_eq!(n, i as u64 + 1, "{m}");
        }
        let mut names: Vec<&str> = Message::ALL.iter().map(|m| m.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), Message::ALL.len());
    }
}
