# Turns webparse's new items (a JSON array of {title, chapter, url}) into the text of an e-mail.
"New chapters:\n" + (map("- \(.title), chapter \(.chapter): \(.url)") | join("\n"))
