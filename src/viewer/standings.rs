//! A tournament's standings as an HTML page linking each round's viewer
//! page (`constree tournament --html DIR`).

use super::html_text;
use crate::scenario::tournament::Outcome;

/// The standings page: the ranked table, then every round with its
/// players' points and scores, each round linking to `round(k)`.
pub fn page(outcome: &Outcome, round: &dyn Fn(usize) -> String) -> String {
    let title = html_text(&outcome.game);
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <title>{title} — constree tournament</title>\n<style>\n{}</style>\n</head>\n<body>\n\
         <h1>{title}</h1>\n<p>{} rounds, seed {}, scoring {}</p>\n",
        STYLE,
        outcome.rounds.len(),
        outcome.seed,
        outcome.scoring
    );
    out.push_str(
        "<h2>Standings</h2>\n<table id=\"standings\">\n<tr><th>rank</th><th>player</th>\
         <th>points</th><th>wins</th><th>survived</th><th>average score</th></tr>\n",
    );
    for s in &outcome.standings {
        out.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.2}</td></tr>\n",
            s.rank,
            html_text(&s.player),
            s.points,
            s.wins,
            s.survived,
            s.average_score
        ));
    }
    out.push_str(
        "</table>\n<h2>Rounds</h2>\n<table id=\"rounds\">\n\
         <tr><th>round</th><th>seed</th><th>winner</th><th>players (points, score)</th></tr>\n",
    );
    for r in &outcome.rounds {
        let players: Vec<String> = r
            .players
            .iter()
            .map(|p| format!("{} ({}, {})", html_text(&p.player), p.points, p.score))
            .collect();
        out.push_str(&format!(
            "<tr><td><a href=\"{}\">round {}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            html_text(&round(r.round)).replace('"', "&quot;"),
            r.round,
            r.seed,
            r.winner
                .as_deref()
                .map_or_else(|| "(none)".into(), html_text),
            players.join(", ")
        ));
    }
    out.push_str("</table>\n</body>\n</html>\n");
    out
}

const STYLE: &str = "body { font: 14px/1.4 system-ui, sans-serif; margin: 16px; }
table { border-collapse: collapse; margin-bottom: 16px; }
th, td { border: 1px solid #cfd8dc; padding: 2px 8px; text-align: left; }
";
